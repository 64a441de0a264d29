/**
 * Made-up word lists for the demo archive, in Spanish, English and Catalan. Every entry is a
 * parallel triple (spa|eng|cat) so that a text is generated once as a list of word numbers and
 * then rendered in each language: the translations of one record then have the same structure
 * (same tags, same timecodes), as the real published archives do. The lists deliberately contain
 * accented words (for accent-insensitive search) and a few tokens with characters that must be
 * HTML-escaped when served (`R&D`, `a<b`, quotes, apostrophes).
 */

export const LANGS = ['lg-spa', 'lg-eng', 'lg-cat'] as const;
export type Lang = (typeof LANGS)[number];

/** Index of a language in the triples below. */
export const LANG_INDEX: Record<Lang, number> = { 'lg-spa': 0, 'lg-eng': 1, 'lg-cat': 2 };

export type Triple = readonly [string, string, string];

function triples(lines: string): Triple[] {
  return lines
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const parts = line.split('|');
      if (parts.length !== 3) throw new Error(`vocabulary entry needs 3 languages: ${line}`);
      return [parts[0]!, parts[1]!, parts[2]!] as const;
    });
}

export const NOUNS = triples(`
  canción|song|cançó
  niño|child|nen
  memoria|memory|memòria
  época|era|època
  café|café|cafè
  fábrica|factory|fàbrica
  barrio|neighbourhood|barri
  escuela|school|escola
  familia|family|família
  trabajo|work|feina
  guerra|war|guerra
  mercado|market|mercat
  puerto|harbour|port
  río|river|riu
  campo|field|camp
  montaña|mountain|muntanya
  pueblo|village|poble
  ciudad|city|ciutat
  casa|house|casa
  cocina|kitchen|cuina
  madre|mother|mare
  padre|father|pare
  abuela|grandmother|àvia
  hermano|brother|germà
  vecino|neighbour|veí
  maestro|teacher|mestre
  sindicato|union|sindicat
  huelga|strike|vaga
  tren|train|tren
  estación|station|estació
  plaza|square|plaça
  iglesia|church|església
  fiesta|festival|festa
  música|music|música
  baile|dance|ball
  cosecha|harvest|collita
  viña|vineyard|vinya
  olivo|olive tree|olivera
  taller|workshop|taller
  máquina|machine|màquina
  telar|loom|teler
  radio|radio|ràdio
  periódico|newspaper|diari
  carta|letter|carta
  fotografía|photograph|fotografia
  maleta|suitcase|maleta
  frontera|border|frontera
  exilio|exile|exili
  regreso|return|retorn
  invierno|winter|hivern
  verano|summer|estiu
  mañana|morning|matí
  noche|night|nit
  año|year|any
  pan|bread|pa
  leche|milk|llet
  corazón|heart|cor
  lengua|language|llengua
  cine|cinema|cinema
  biblioteca|library|biblioteca
  cooperativa|cooperative|cooperativa
  mina|mine|mina
  barco|boat|vaixell
  bicicleta|bicycle|bicicleta
`);

export const VERBS = triples(`
  recuerdo|I remember|recordo
  vivíamos|we lived|vivíem
  trabajaba|she worked|treballava
  cantábamos|we sang|cantàvem
  llegó|arrived|va arribar
  salimos|we left|vam sortir
  volvimos|we came back|vam tornar
  aprendí|I learned|vaig aprendre
  contaba|used to tell|explicava
  perdimos|we lost|vam perdre
  construyeron|they built|van construir
  cerraron|they closed|van tancar
  esperábamos|we waited|esperàvem
  escribía|wrote|escrivia
  bailaban|they danced|ballaven
  sabíamos|we knew|sabíem
  vendían|they sold|venien
  cruzamos|we crossed|vam creuar
  guardaba|kept|guardava
  empezó|began|va començar
`);

export const ADJECTIVES = triples(`
  pequeño|small|petit
  viejo|old|vell
  nuevo|new|nou
  difícil|difficult|difícil
  alegre|cheerful|alegre
  oscuro|dark|fosc
  largo|long|llarg
  último|last|últim
  pobre|poor|pobre
  lejano|distant|llunyà
  común|shared|comú
  húmedo|damp|humit
  tranquilo|quiet|tranquil
  rápido|quick|ràpid
  extraño|strange|estrany
  único|unique|únic
`);

export const CONNECTORS = triples(`
  y|and|i
  pero|but|però
  también|also|també
  después|afterwards|després
  entonces|then|llavors
  con|with|amb
  sin|without|sense
  según|according to|segons
  durante|during|durant
  cuando|when|quan
  porque|because|perquè
  en|in|a
  de|of|de
  para|for|per
`);

export const OPENERS = triples(`
  Aquel día|That day|Aquell dia
  En aquella época|At that time|En aquella època
  Mi abuela decía que|My grandmother said that|La meva àvia deia que
  Nunca olvidaré que|I will never forget that|Mai no oblidaré que
  Por las mañanas|In the mornings|Al matí
  Cuando era niño|When I was a child|Quan era nen
  Al principio|At first|Al principi
  Muchos años después|Many years later|Molts anys després
  En el barrio|In the neighbourhood|Al barri
  Según mi madre|According to my mother|Segons la meva mare
  Aquella noche|That night|Aquella nit
  Todos sabíamos que|We all knew that|Tots sabíem que
`);

/** Rare tokens that exercise HTML escaping: never emitted as markup by the generator itself. */
export const SPECIALS = triples(`
  R&D|R&D|R&D
  a<b|a<b|a<b
  b>a|b>a|b>a
  "la fábrica"|"the factory"|"la fàbrica"
  'el café'|'the café'|l'escola
  Pérez & Hijos|Pérez & Sons|Pérez & Fills
`);

/** Templates for titles; `{noun}` and `{place}` are filled in, the rest is per language. */
export const INTERVIEW_TITLES = triples(`
  Memorias de {noun} en {place}|Memories of {noun} in {place}|Memòries de {noun} a {place}
  La {noun} de {place}|The {noun} of {place}|La {noun} de {place}
  Relato sobre {noun}: {place}|An account of {noun}: {place}|Relat sobre {noun}: {place}
  Vida y {noun} en {place}|Life and {noun} in {place}|Vida i {noun} a {place}
`);

export const PUBLICATION_TITLES = triples(`
  Estudios sobre {noun} y {noun2}|Studies on {noun} and {noun2}|Estudis sobre {noun} i {noun2}
  Historia oral de {noun}|An oral history of {noun}|Història oral de {noun}
  {Noun}, {noun2} y memoria|{Noun}, {noun2} and memory|{Noun}, {noun2} i memòria
`);

export const SCOPE_NOTES = triples(`
  Término usado para testimonios sobre {noun}.|Term used for testimonies about {noun}.|Terme usat per a testimonis sobre {noun}.
  Incluye referencias a {noun} y {noun2}.|Includes references to {noun} and {noun2}.|Inclou referències a {noun} i {noun2}.
`);

/** Monolingual values: names and places are proper nouns, the same in every language. */
export const GIVEN_NAMES = [
  'José',
  'María',
  'Núria',
  'Jordi',
  'Ángel',
  'Inés',
  'Martí',
  'Carmen',
  'Joan',
  'Dolores',
  'Ramón',
  'Teresa',
  'Andreu',
  'Lucía',
  'Francesc',
  'Pilar',
  'Àngela',
  'Tomás',
  'Mercè',
  'Julián',
];

export const SURNAMES = [
  'Pérez',
  'García',
  'Puig',
  'Ferrer',
  'Muñoz',
  'Sánchez',
  'Vidal',
  'Castells',
  'Giménez',
  'Serra',
  'Ibáñez',
  'Roca',
  'Martínez',
  'Soler',
  'Núñez',
  "d'Urgell",
  'Llorens',
  'Domínguez',
  'Bosch',
  'Ortega',
];

const PLACE_HEADS = ['Vila', 'Torre', 'Castell', 'Puebla', 'Sant', 'Santa', 'Mas', 'Riba', 'Cala', 'Font'];
const PLACE_TAILS = [
  'del Río',
  'de Mar',
  'Alta',
  'Nova',
  'de l’Ebre',
  'Seca',
  'del Camp',
  'de Baix',
  'Vella',
  'd’Amunt',
  'de la Peña',
  'Fosca',
];

/** Synthetic place names (head × tail), so no place stands for a real one. */
export const PLACES: readonly string[] = PLACE_HEADS.flatMap((head) =>
  PLACE_TAILS.map((tail) => `${head} ${tail}`),
);

export const GENDERS = ['female', 'male', 'female', 'male', 'non-binary'];

/** Thesaurus term shapes, per language. */
export const THEME_TERMS = triples(`
  {Noun}|{Noun}|{Noun}
  {Noun} y {noun2}|{Noun} and {noun2}|{Noun} i {noun2}
  {Noun} de {noun2}|{Noun} of {noun2}|{Noun} de {noun2}
`);
