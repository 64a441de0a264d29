/**
 * Discovery tools: which databases are published and what their tables hold. An agent starts
 * here, because every other tool needs a table name and usually column names.
 */
import { databasesOperation, tableOperation, tablesOperation } from '../operations/discovery.js';
import { requireTable } from '../services/catalog-service.js';
import { databasesOutput, schemaOutput } from './output-schemas.js';
import { type DbArg, tableArg, toolInput } from './tool-args.js';
import { databaseOf, defineTool, type McpTool, operationTool, runOperation } from './tool-definition.js';

export function catalogTools(dbArg: DbArg): McpTool[] {
  return [
    operationTool({
      name: 'list_databases',
      title: 'List databases',
      description:
        'Lists the published databases (each an oral-history archive) and which one the other tools use when db is left out. Call it first when you do not know the database names.',
      input: toolInput({}),
      output: databasesOutput,
      operation: databasesOperation,
      call: () => ({}),
      answer: ({ body }) => {
        const names = body.data.map((d) => d.name);
        return {
          structured: { databases: names.map((name) => ({ name })), default_db: names[0] ?? null },
          summary: `${names.length} database(s): ${names.join(', ')}.`,
        };
      },
    }),
    // Two operations behind one tool: the table list, or one table's schema.
    defineTool({
      name: 'get_schema',
      title: 'Describe a database or table',
      description:
        'Without table: the tables of a database with estimated row counts. With table: its columns (name, SQL type), exact row count and the columns fulltext_search can search. Use it before search_records to learn column names for filters, sort and fields; tables named ts_* are thesaurus tables.',
      input: toolInput({
        db: dbArg,
        table: tableArg.optional().describe('A table name; leave out to list the tables.'),
      }),
      output: schemaOutput,
      run: async (ctx, args) => {
        const db = databaseOf(ctx, args.db);
        if (args.table === undefined) {
          const tables = (await runOperation(ctx, tablesOperation, db, {})).body.data;
          return {
            structured: { db, tables },
            summary: `${tables.length} table(s) in ${db}: ${tables.map((t) => t.name).join(', ')}.`,
          };
        }
        const described = (await runOperation(ctx, tableOperation, db, { params: { table: args.table } }))
          .body.data;
        // Not in the REST answer, but an agent cannot guess which columns are indexed.
        const info = await requireTable(ctx, db, args.table);
        const table = { ...described, fulltext_columns: [...info.fulltextColumns].sort() };
        return {
          structured: { db, table },
          summary: `Table ${table.name} of ${db}: ${table.row_count} rows, columns ${table.columns.map((c) => c.name).join(', ')}.`,
        };
      },
    }),
  ];
}
