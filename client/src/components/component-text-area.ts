/** component_text_area: the first value of the slice in the transcription editor; saved on leaving it. */
import { html } from 'lit';
import '../text/dd-transcription-editor.js';
import { ComponentBase } from './component-base.js';

interface TextItem {
  id: number;
  value: string;
}

export class ComponentTextArea extends ComponentBase {
  private changed(e: CustomEvent<string>) {
    const value = e.detail;
    // Read the current item only after the previous save's echo: leaving the text and then
    // inserting a timecode are two changes in quick succession.
    return this.afterPendingSaves(async () => {
      const entry = (this.entries as TextItem[])[0];
      if (entry) {
        if (entry.value === value) return;
        await this.save(
          value === ''
            ? [{ action: 'remove', id: entry.id, value: null }]
            : [{ action: 'update', id: entry.id, value: { id: entry.id, lang: this.itemLang, value } }],
        );
      } else if (value !== '') {
        await this.save([{ action: 'insert', id: null, value: { id: null, lang: this.itemLang, value } }]);
      }
    });
  }

  protected override async resetInputs() {
    await this.updateComplete;
    const editor = this.renderRoot.querySelector('dd-transcription-editor') as
      | (HTMLElement & { value: string })
      | null;
    if (editor) editor.value = (this.entries as TextItem[])[0]?.value ?? '';
  }

  override render() {
    const entry = (this.entries as TextItem[])[0];
    return this.frame(
      html`<dd-transcription-editor .value=${entry?.value ?? ''} .label=${this.context.label as string}
        ?readonly=${this.readOnly} @change=${this.changed}></dd-transcription-editor>`,
    );
  }
}
customElements.define('component-text-area', ComponentTextArea);
