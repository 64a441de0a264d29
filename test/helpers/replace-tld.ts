/**
 * Replaces one TLD of the stored ontology with the nodes of a Dédalo dump (jer_dd or dd_ontology,
 * read by the project's own reader): in one transaction, the TLD's rows of `dd_ontology` are
 * deleted and the file's rows of that TLD inserted as the reader normalised them (model names,
 * relations as `[{tipo}]`, order, translatable flag, properties; model nodes kept with
 * `is_model`), the TLD registered in `main_dd`. The trigger bumps the ontology version, so a
 * running server loads the result on its next request, or refuses it and keeps the last good one.
 *
 * A test stand-in for the import command: it writes what the file says, nothing more.
 */
import type { ImportNode } from '../../src/work/ontology/import/import-node.js';
import { readOntologyFile } from '../../src/work/ontology/import/read-ontology-file.js';
import type { SqlClient } from '../../src/work/store/sql-client.js';

export interface ReplacedTld {
  nodes: ImportNode[];
  /** The ontology version after the commit. */
  version: number;
}

function rowOf(n: ImportNode) {
  const model = n.model ?? (n.is_model ? 'model' : null);
  if (model === null) throw new Error(`replace-tld: ${n.tipo} has no model`);
  return {
    tipo: n.tipo,
    parent: n.parent,
    term: n.term,
    model,
    order_number: n.order ?? 0,
    relations: n.relations.length > 0 ? n.relations.map((tipo) => ({ tipo })) : null,
    tld: n.tld,
    properties: n.properties ?? null,
    is_translatable: n.translatable,
    is_model: n.is_model,
  };
}

export async function replaceTld(db: SqlClient, dumpText: string, tld: string): Promise<ReplacedTld> {
  const { nodes, report } = readOntologyFile(dumpText, { tld });
  if (report.problems.length > 0) {
    throw new Error(`replace-tld: the file has problems: ${JSON.stringify(report.problems.slice(0, 5))}`);
  }
  const version = await db.transaction(async (tx) => {
    await tx.query('DELETE FROM dd_ontology WHERE tld = $1', [tld]);
    await tx.query(
      `INSERT INTO dd_ontology
         (tipo, parent, term, model, order_number, relations, tld, properties, is_translatable, is_model)
       SELECT tipo, parent, term, model, order_number, relations, tld, properties, is_translatable, is_model
       FROM jsonb_to_recordset($1::text::jsonb) AS r(tipo text, parent text, term jsonb, model text,
         order_number integer, relations jsonb, tld text, properties jsonb, is_translatable boolean,
         is_model boolean)`,
      [JSON.stringify(nodes.map(rowOf))],
    );
    await tx.query(
      `INSERT INTO main_dd (tld, name, source) VALUES ($1, $2, 'test')
       ON CONFLICT (tld) DO UPDATE SET source = 'test'`,
      [tld, `${tld} (replaced by a test)`],
    );
    const { rows } = await tx.query<{ version: string }>(
      'SELECT version::text AS version FROM ontology_version WHERE id = 1',
    );
    return Number(rows[0]!.version);
  });
  return { nodes, version };
}
