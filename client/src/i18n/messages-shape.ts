/** A language file: keys as in en.ts, plural forms as the language's own rules need them. */
export type Messages = Record<string, string>;
