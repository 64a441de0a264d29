/**
 * `dd_utils_api.change_lang`: stores the interface and/or data language on the session. Each
 * value must be in the ontology's language allowlist (the stock client's `dedalo_*` names are
 * aliases of the `svc_*` ones) (`lg-nolan` is not a choice: it marks
 * untranslatable data, it is not a language); every later request of the session uses them.
 */
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { NO_LANG, type Ontology } from '../../ontology/load-ontology.js';
import { updateSessionLangs } from '../../store/sessions.js';
import { type Fields, objectField, optionalString } from '../rqo-fields.js';

function allowedLang(ontology: Ontology, options: Fields, name: string): string | undefined {
  const value = optionalString(options, name, `options.${name}`);
  if (value === undefined) return undefined;
  if (value === NO_LANG || !ontology.isLanguage(value)) {
    throw new WorkError(
      'lang.not_allowed',
      `options.${name} "${value.slice(0, 32)}" is not an allowed language`,
    );
  }
  return value;
}

export const changeLangAction: ActionDefinition = {
  needsSession: true,
  handle: async ({ rqo, ontology, db, session }) => {
    const options = objectField(rqo, 'options');
    // The stock client sends the dedalo_* names; null means "unchanged" under either name.
    const applicationLang =
      allowedLang(ontology, options, 'svc_application_lang') ??
      allowedLang(ontology, options, 'dedalo_application_lang');
    const dataLang =
      allowedLang(ontology, options, 'svc_data_lang') ?? allowedLang(ontology, options, 'dedalo_data_lang');
    if (applicationLang === undefined && dataLang === undefined) {
      throw new WorkError(
        'rqo.invalid_field',
        'give options.svc_application_lang and/or options.svc_data_lang (or their aliases dedalo_application_lang, dedalo_data_lang)',
      );
    }
    await updateSessionLangs(db, session!.tokenSha256, { applicationLang, dataLang });
    return { data: true };
  },
};
