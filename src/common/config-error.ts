/**
 * A configuration problem found at start-up. Entry points print its message and exit non-zero,
 * so an operator sees which variable is wrong instead of a server that silently uses 0.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
