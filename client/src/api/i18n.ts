/**
 * The client's words about saving, in each interface language it has (English, Spanish,
 * Catalan): the field status, the conflict between two people's saves, and work not yet saved
 * because the server is away. The language is the session's interface language
 * (`dedalo_application_lang`, set at start); anything else falls back to English.
 */

export type UiLang = 'en' | 'es' | 'ca';

type Params = Record<string, string | number>;
type Entry = string | ((p: Params) => string);

const en = {
  saving: 'Saving…',
  saved: 'Saved',
  notSaved: (p: Params) => `Not saved: ${p.message}`,
  couldNotSave: 'The value could not be saved.',
  pendingField: 'Not saved yet: the server cannot be reached. Kept in this tab; saved as soon as it answers.',
  restoredField:
    'Not saved yet: restored from before the page was reloaded. Saved as soon as the server answers.',
  pendingCount: (p: Params) => (p.n === 1 ? '1 change not saved' : `${p.n} changes not saved`),
  pendingWhy: 'The server cannot be reached. Trying again on its own.',
  retry: 'Retry',
  retrying: 'Retrying…',
  savedLater: (p: Params) => `${p.label}: saved.`,
  conflictTitle: (p: Params) => `${p.label}: someone else saved this field`,
  conflictBody: (p: Params) =>
    `${p.who} saved a new value at ${p.when}, after you opened it. Choose which value to keep.`,
  conflictStatus: 'Not saved: someone else saved this field first.',
  someone: 'Another user',
  theirs: 'Theirs',
  theirsBy: (p: Params) => `${p.who}, ${p.when}`,
  mine: 'Yours',
  mineWhat: 'What you typed',
  keepMine: 'Keep mine',
  takeTheirs: 'Take theirs',
  empty: '(empty)',
  tookTheirs: (p: Params) => `${p.label}: the other value is kept; yours was not saved.`,
  someoneEditing: 'Another user is editing this field.',
  dateHint: 'Year, year-month or year-month-day',
  dateInvalid: 'Write the date as 1990, 1990-05 or 1990-05-17.',
  dateFrom: 'From',
  dateTo: 'To',
  dateRangeNeedsStart: 'A range needs its start date.',
  dateRangeOrder: 'The end of the range comes before its start.',
  notANumber: 'This is not a number: type digits, with a decimal point or comma.',
  refreshed: (p: Params) => `${p.label}: the field shows the value saved by the other user.`,
  required: 'required',
  mandatoryEmpty: (p: Params) => `${p.label} is required: it cannot be left empty.`,
  duplicateValue: (p: Params) => `“${p.value}” is already the ${p.label} of another record.`,
  openOther: (p: Params) => `Open that record (${p.id})`,
  modelNotImplemented: (p: Params) => `This field's kind (${p.model}) cannot be edited here.`,
  menuUpdated: 'The ontology changed: the menu shows it now.',
  choose: '— choose —',
  uninstallTitle: (p: Params) => `Uninstall the TLD ${p.tld}?`,
  uninstallBody: (p: Params) =>
    `Its sections hold ${p.n === 1 ? '1 record' : `${p.n} records`} (${p.list}). They are kept in storage but hidden until the TLD is installed again.`,
  uninstall: 'Uninstall',
  exportMenu: 'Export',
  exportHint: 'The records of the current search, every page.',
  exportDedalo: 'Dédalo CSV (to import again)',
  exportPlain: 'Spreadsheet CSV (labels and values)',
} satisfies Record<string, Entry>;

export type MessageKey = keyof typeof en;

const es: Record<MessageKey, Entry> = {
  saving: 'Guardando…',
  saved: 'Guardado',
  notSaved: (p) => `No guardado: ${p.message}`,
  couldNotSave: 'No se ha podido guardar el valor.',
  pendingField:
    'Aún no guardado: no se puede contactar con el servidor. Se conserva en esta pestaña y se guardará en cuanto responda.',
  restoredField:
    'Aún no guardado: recuperado de antes de recargar la página. Se guardará en cuanto responda el servidor.',
  pendingCount: (p) => (p.n === 1 ? '1 cambio sin guardar' : `${p.n} cambios sin guardar`),
  pendingWhy: 'No se puede contactar con el servidor. Se reintenta automáticamente.',
  retry: 'Reintentar',
  retrying: 'Reintentando…',
  savedLater: (p) => `${p.label}: guardado.`,
  conflictTitle: (p) => `${p.label}: otra persona ha guardado este campo`,
  conflictBody: (p) =>
    `${p.who} guardó un valor nuevo a las ${p.when}, después de que lo abrieras. Elige qué valor conservar.`,
  conflictStatus: 'No guardado: otra persona guardó este campo antes.',
  someone: 'Otro usuario',
  theirs: 'El suyo',
  theirsBy: (p) => `${p.who}, ${p.when}`,
  mine: 'El tuyo',
  mineWhat: 'Lo que has escrito',
  keepMine: 'Conservar el mío',
  takeTheirs: 'Aceptar el suyo',
  empty: '(vacío)',
  tookTheirs: (p) => `${p.label}: se conserva el otro valor; el tuyo no se ha guardado.`,
  someoneEditing: 'Otro usuario está editando este campo.',
  dateHint: 'Año, año-mes o año-mes-día',
  dateInvalid: 'Escriba la fecha como 1990, 1990-05 o 1990-05-17.',
  dateFrom: 'Desde',
  dateTo: 'Hasta',
  dateRangeNeedsStart: 'Un intervalo necesita su fecha de inicio.',
  dateRangeOrder: 'El final del intervalo es anterior a su inicio.',
  notANumber: 'Esto no es un número: escriba cifras, con coma o punto decimal.',
  refreshed: (p) => `${p.label}: el campo muestra el valor guardado por el otro usuario.`,
  required: 'obligatorio',
  mandatoryEmpty: (p) => `${p.label} es obligatorio: no puede quedar vacío.`,
  duplicateValue: (p) => `«${p.value}» ya es el valor de ${p.label} de otro registro.`,
  openOther: (p) => `Abrir ese registro (${p.id})`,
  modelNotImplemented: (p) => `El tipo de este campo (${p.model}) no se puede editar aquí.`,
  menuUpdated: 'La ontología ha cambiado: el menú ya lo muestra.',
  choose: '— elegir —',
  uninstallTitle: (p) => `¿Desinstalar el TLD ${p.tld}?`,
  uninstallBody: (p) =>
    `Sus secciones contienen ${p.n === 1 ? '1 registro' : `${p.n} registros`} (${p.list}). Se conservan almacenados pero ocultos hasta que se vuelva a instalar el TLD.`,
  uninstall: 'Desinstalar',
  exportMenu: 'Exportar',
  exportHint: 'Los registros de la búsqueda actual, todas las páginas.',
  exportDedalo: 'CSV de Dédalo (para volver a importar)',
  exportPlain: 'CSV para hoja de cálculo (etiquetas y valores)',
};

const ca: Record<MessageKey, Entry> = {
  saving: 'Desant…',
  saved: 'Desat',
  notSaved: (p) => `No desat: ${p.message}`,
  couldNotSave: "No s'ha pogut desar el valor.",
  pendingField:
    'Encara no desat: no es pot contactar amb el servidor. Es conserva en aquesta pestanya i es desarà tan bon punt respongui.',
  restoredField:
    "Encara no desat: recuperat d'abans de recarregar la pàgina. Es desarà tan bon punt respongui el servidor.",
  pendingCount: (p) => (p.n === 1 ? '1 canvi sense desar' : `${p.n} canvis sense desar`),
  pendingWhy: 'No es pot contactar amb el servidor. Es torna a provar automàticament.',
  retry: 'Torna-ho a provar',
  retrying: 'Tornant-ho a provar…',
  savedLater: (p) => `${p.label}: desat.`,
  conflictTitle: (p) => `${p.label}: una altra persona ha desat aquest camp`,
  conflictBody: (p) =>
    `${p.who} va desar un valor nou a les ${p.when}, després que l'obrissis. Tria quin valor vols conservar.`,
  conflictStatus: 'No desat: una altra persona ha desat aquest camp abans.',
  someone: 'Un altre usuari',
  theirs: 'El seu',
  theirsBy: (p) => `${p.who}, ${p.when}`,
  mine: 'El teu',
  mineWhat: 'El que has escrit',
  keepMine: 'Conserva el meu',
  takeTheirs: 'Accepta el seu',
  empty: '(buit)',
  tookTheirs: (p) => `${p.label}: es conserva l'altre valor; el teu no s'ha desat.`,
  someoneEditing: 'Un altre usuari està editant aquest camp.',
  dateHint: 'Any, any-mes o any-mes-dia',
  dateInvalid: 'Escriviu la data com 1990, 1990-05 o 1990-05-17.',
  dateFrom: 'Des de',
  dateTo: 'Fins a',
  dateRangeNeedsStart: 'Un interval necessita la data d’inici.',
  dateRangeOrder: 'El final de l’interval és anterior a l’inici.',
  notANumber: 'Això no és un nombre: escriviu xifres, amb coma o punt decimal.',
  refreshed: (p) => `${p.label}: el camp mostra el valor desat per l'altre usuari.`,
  required: 'obligatori',
  mandatoryEmpty: (p) => `${p.label} és obligatori: no es pot deixar buit.`,
  duplicateValue: (p) => `«${p.value}» ja és el valor de ${p.label} d'un altre registre.`,
  openOther: (p) => `Obre aquest registre (${p.id})`,
  modelNotImplemented: (p) => `El tipus d'aquest camp (${p.model}) no es pot editar aquí.`,
  menuUpdated: "L'ontologia ha canviat: el menú ja ho mostra.",
  choose: '— tria —',
  uninstallTitle: (p) => `Vols desinstal·lar el TLD ${p.tld}?`,
  uninstallBody: (p) =>
    `Les seves seccions contenen ${p.n === 1 ? '1 registre' : `${p.n} registres`} (${p.list}). Es conserven emmagatzemats però ocults fins que es torni a instal·lar el TLD.`,
  uninstall: 'Desinstal·la',
  exportMenu: 'Exporta',
  exportHint: 'Els registres de la cerca actual, totes les pàgines.',
  exportDedalo: 'CSV de Dédalo (per tornar a importar)',
  exportPlain: 'CSV per a full de càlcul (etiquetes i valors)',
};

const TABLES: Record<UiLang, Record<MessageKey, Entry>> = { en, es, ca };

let current: UiLang = 'en';

/** The interface language from a Dédalo language code (lg-spa, lg-cat, lg-eng...). */
export function uiLangOf(dedaloLang: string | undefined): UiLang {
  if (dedaloLang === 'lg-spa') return 'es';
  if (dedaloLang === 'lg-cat') return 'ca';
  return 'en';
}

/**
 * Sets the language of these messages. The page's own `lang` stays: the rest of the interface
 * is in English, so the elements showing these words carry their own `lang` (uiLang()).
 */
export function setUiLang(lang: UiLang): void {
  current = lang;
}

export function uiLang(): UiLang {
  return current;
}

export function t(key: MessageKey, params: Params = {}, lang: UiLang = current): string {
  const entry = TABLES[lang][key] ?? en[key];
  return typeof entry === 'function' ? entry(params) : entry;
}

/** A moment for people: the time today, else the date and time, in the interface language. */
export function momentOf(iso: string | undefined, lang: UiLang = current, now = new Date()): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const sameDay = d.toDateString() === now.toDateString();
  const locale = { en: 'en-GB', es: 'es-ES', ca: 'ca-ES' }[lang];
  return sameDay
    ? d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
