/** The look shared by every screen: system fonts only (offline), readable contrast, visible focus. */
import { css } from 'lit';

export const baseStyles = css`
  :host {
    --ink: #1d232b;
    --muted: #4f5b66;
    --line: #c9d1d9;
    --paper: #ffffff;
    --wash: #f3f5f7;
    --accent: #0b5cad;
    --accent-ink: #ffffff;
    --ok: #1a6b2f;
    --bad: #a3160d;
    --warn: #7a4d00;
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    color: var(--ink);
    font-size: 15px;
    line-height: 1.4;
  }
  * { box-sizing: border-box; }
  button, input, select, textarea { font: inherit; color: inherit; }
  button {
    border: 1px solid var(--line); background: var(--paper); border-radius: 4px;
    padding: 0.3rem 0.7rem; cursor: pointer;
  }
  button:hover { background: var(--wash); }
  button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
  button.danger { color: var(--bad); border-color: var(--bad); }
  button:disabled { opacity: 0.55; cursor: default; }
  input, select, textarea {
    border: 1px solid #8a949e; border-radius: 4px; padding: 0.3rem 0.45rem; background: var(--paper);
    max-width: 100%;
  }
  /* A field that cannot be typed in (read access only, computed, held by someone) does not look
     like one that can: the page's wash behind it and a lighter border. */
  input[readonly], textarea[readonly] { background: var(--wash); border-color: var(--line); }
  :focus-visible { outline: 3px solid #f2a900; outline-offset: 1px; }
  a { color: var(--accent); }
  .muted { color: var(--muted); }
  .error { color: var(--bad); }
  .notice { border-left: 4px solid var(--accent); background: var(--wash); padding: 0.5rem 0.75rem; }
  .alert { border-left: 4px solid var(--bad); background: #fdf0ef; padding: 0.5rem 0.75rem; color: var(--bad); }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
  }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { background: var(--wash); font-weight: 600; }
  .row { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
  .chip {
    display: inline-flex; align-items: center; gap: 0.25rem; border-radius: 999px; padding: 0 0.5rem;
    background: #e4ecf5; border: 1px solid #9db7d5; font-size: 0.85em; white-space: nowrap;
  }
`;
