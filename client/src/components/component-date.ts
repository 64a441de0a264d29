/**
 * component_date: a date of year, month or day precision typed as 1990, 1990-05 or 1990-05-17
 * (archives often know only the year), saved as the whole value (`set_data` of {start}).
 */
import { html } from 'lit';
import { type DateParts, formatDate, parseDateInput } from '../api/read-shapes.js';
import { ComponentBase } from './component-base.js';

interface DateItem {
  id: number;
  start?: DateParts;
  end?: DateParts;
}

export class ComponentDate extends ComponentBase {
  private async changed(input: HTMLInputElement) {
    const text = input.value.trim();
    if (text === '') {
      await this.save([{ action: 'set_data', value: [] }]);
      return;
    }
    const start = parseDateInput(text);
    if (!start) {
      this.status = 'failed';
      this.message = 'Write the date as 1990, 1990-05 or 1990-05-17.';
      return;
    }
    const current = (this.entries as DateItem[])[0];
    await this.save([{ action: 'set_data', value: [{ ...(current ? { id: current.id } : {}), start }] }]);
  }

  override render() {
    const current = (this.entries as DateItem[])[0];
    const text = formatDate(current?.start).replaceAll('/', '-');
    const id = `${this.uid}-date`;
    return this.frame(
      html`<input id=${id} class="text" style="width: 10rem" placeholder="YYYY-MM-DD" .value=${text}
        aria-describedby="${this.uid}-hint" ?readonly=${this.readOnly} @change=${(e: Event) => this.changed(e.target as HTMLInputElement)} />
        <span id="${this.uid}-hint" class="muted">Year, year-month or year-month-day</span>`,
      id,
    );
  }
}
customElements.define('component-date', ComponentDate);
