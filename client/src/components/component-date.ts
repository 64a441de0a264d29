/**
 * component_date: a date of year, month or day precision typed as 1990, 1990-05 or 1990-05-17
 * (archives often know only the year), saved as the whole value (`set_data` of {start}). A
 * component whose ontology says `date_mode: "range"` has two fields, from and to, saved as
 * {start, end}; a range needs its start, and its end may not come before it. Other modes show
 * the start date.
 */
import { html } from 'lit';
import { t } from '../api/i18n.js';
import { type DateParts, formatDate, parseDateInput } from '../api/read-shapes.js';
import { ComponentBase } from './component-base.js';

interface DateItem {
  id: number;
  start?: DateParts;
  end?: DateParts;
}

/** Compares two dates of any precision by what both give (1990 and 1990-05 are not apart). */
function before(a: DateParts, b: DateParts): boolean {
  for (const key of ['year', 'month', 'day'] as const) {
    const x = a[key];
    const y = b[key];
    if (x === undefined || y === undefined) return false;
    if (x !== y) return x < y;
  }
  return false;
}

export class ComponentDate extends ComponentBase {
  private get isRange(): boolean {
    return (this.context.properties as { date_mode?: unknown } | undefined)?.date_mode === 'range';
  }

  private refuse(message: string) {
    this.status = 'failed';
    this.message = message;
  }

  private async changed() {
    const inputs = [...this.renderRoot.querySelectorAll<HTMLInputElement>('input.date')];
    const [startText = '', endText = ''] = inputs.map((i) => i.value.trim());
    if (startText === '' && endText === '') {
      await this.save([{ action: 'set_data', value: [] }]);
      return;
    }
    if (startText === '') return this.refuse(t('dateRangeNeedsStart'));
    const start = parseDateInput(startText);
    const end = endText === '' ? undefined : parseDateInput(endText);
    if (!start || (endText !== '' && !end)) return this.refuse(t('dateInvalid'));
    if (end && before(end, start)) return this.refuse(t('dateRangeOrder'));
    const current = (this.entries as DateItem[])[0];
    await this.save([
      {
        action: 'set_data',
        value: [{ ...(current ? { id: current.id } : {}), start, ...(end ? { end } : {}) }],
      },
    ]);
  }

  private field(id: string, value: DateParts | undefined, label?: string) {
    return html`${label ? html`<label for=${id} class="muted">${label}</label>` : ''}
      <input id=${id} class="text date" style="width: 10rem" placeholder=${t('datePlaceholder')}
        .value=${formatDate(value).replaceAll('/', '-')} aria-describedby="${this.uid}-hint"
        ?readonly=${this.readOnly} @change=${() => this.changed()} />`;
  }

  override render() {
    const current = (this.entries as DateItem[])[0];
    const hint = html`<span id="${this.uid}-hint" class="muted">${t('dateHint')}</span>`;
    if (!this.isRange) {
      const id = `${this.uid}-date`;
      return this.frame(html`${this.field(id, current?.start)} ${hint}`, id);
    }
    return this.frame(
      html`<div role="group" aria-labelledby="${this.uid}-label" class="row">
        ${this.field(`${this.uid}-from`, current?.start, t('dateFrom'))}
        ${this.field(`${this.uid}-to`, current?.end, t('dateTo'))}
      </div>${hint}`,
    );
  }
}
customElements.define('component-date', ComponentDate);
