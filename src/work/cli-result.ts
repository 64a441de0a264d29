/** What a `npm run work -- <command>` returns to cli-main.ts. */
export interface CliResult {
  exitCode: number;
  output: string;
  /** Written to stdout as it is, without a newline added (an exported file). */
  raw?: string;
}
