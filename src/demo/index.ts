/**
 * Public entry of the demo-data generator: options and summary types, the two sinks (SQLite
 * file, MariaDB database) and the table definitions they share. Used by the CLI, by the test
 * fixtures and by the benchmarks, so that all of them exercise the same synthetic archive.
 */
export {
  type Cell,
  type ColumnDef,
  type ColumnType,
  type DemoOptions,
  type DemoSummary,
  type DemoTable,
  demoDataset,
  type Row,
  TABLE_DEFS,
  type TableDef,
} from './dataset.js';
export { type MariadbConnectionOptions, writeMariadbDemo } from './mariadb-sink.js';
export { ftsTableName, writeSqliteDemo } from './sqlite-sink.js';
