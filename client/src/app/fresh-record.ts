/**
 * A record the user has just created: its screen puts the cursor in its first field, so typing
 * starts without a click (issue 25: a complete interview in half the clicks). Kept in memory
 * only: a reload or a link to the same record is not a fresh creation.
 */
let fresh: string | undefined;

const key = (section: string, id: number) => `${section}/${id}`;

/** Says the next screen of this record opens on a record just created. */
export function markFresh(section: string, id: number): void {
  fresh = key(section, id);
}

/** True once for the record just created (and forgets it). */
export function takeFresh(section: string, id: number): boolean {
  if (fresh !== key(section, id)) return false;
  fresh = undefined;
  return true;
}

/** What a person types into: the first of these in a field is where the cursor goes. */
const TYPABLE =
  'input:not([type=hidden]):not([type=file]):not([type=radio]):not([type=checkbox]):not([disabled]), textarea:not([disabled]), [contenteditable="true"]';

/**
 * Puts the cursor in the first field of `fields` (custom elements with their own shadow roots,
 * in order) that takes typing; each field is waited for until it has drawn itself.
 */
export async function focusFirstField(fields: Iterable<Element>): Promise<boolean> {
  for (const el of fields) {
    const pending = (el as Element & { updateComplete?: Promise<unknown> }).updateComplete;
    if (pending) await pending;
    const target = el.shadowRoot?.querySelector<HTMLElement>(TYPABLE);
    if (target) {
      target.focus();
      return true;
    }
  }
  return false;
}
