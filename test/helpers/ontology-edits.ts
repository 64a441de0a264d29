/**
 * Changes the ontology of a running server the way an operator's SQL does: rows of dd_ontology
 * written in one transaction, so the trigger bumps ontology_version once and every instance
 * reloads on its next request. A node is given in the loader's terms (label, translatable,
 * target_section_tipo, matrix_table, properties); its TLD is registered in main_dd when it is
 * new, and it goes after its existing siblings unless `order` says where.
 */
import { tldOf } from '../../src/work/ontology/ontology-schema.js';
import type { SqlClient, SqlQueryable } from '../../src/work/store/sql-client.js';

export interface NodeEdit {
  tipo: string;
  parent: string;
  model: string;
  label: Record<string, string>;
  translatable?: boolean;
  target_section_tipo?: string[];
  /** Sections: the matrix table their records live in (default matrix). */
  matrix_table?: string;
  properties?: Record<string, unknown>;
  /** Order among siblings; default: after the last one. */
  order?: number;
}

async function insertNode(tx: SqlQueryable, node: NodeEdit): Promise<void> {
  const tld = tldOf(node.tipo);
  await tx.query(
    `INSERT INTO main_dd (tld, name, source) VALUES ($1, $1, 'test') ON CONFLICT (tld) DO NOTHING`,
    [tld],
  );
  const properties = {
    ...node.properties,
    ...(node.matrix_table !== undefined ? { matrix_table: node.matrix_table } : {}),
  };
  await tx.query(
    `INSERT INTO dd_ontology
       (tipo, parent, term, model, order_number, relations, tld, properties, is_translatable, is_model)
     VALUES ($1, $2, $3::text::jsonb, $4,
       coalesce($5::integer, (SELECT coalesce(max(order_number), 0) + 1 FROM dd_ontology WHERE parent = $2)),
       $6::text::jsonb, $7, $8::text::jsonb, $9, false)`,
    [
      node.tipo,
      node.parent,
      JSON.stringify(node.label),
      node.model,
      node.order ?? null,
      node.target_section_tipo ? JSON.stringify(node.target_section_tipo.map((tipo) => ({ tipo }))) : null,
      tld,
      Object.keys(properties).length > 0 ? JSON.stringify(properties) : null,
      node.translatable === true,
    ],
  );
}

/** Adds the nodes (parents before children) in one transaction. */
export async function addNodes(db: SqlClient, nodes: readonly NodeEdit[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const node of nodes) await insertNode(tx, node);
  });
}

export const addNode = (db: SqlClient, node: NodeEdit) => addNodes(db, [node]);

/**
 * Changes one node: `properties` replaces the stored properties (null removes them), `label`
 * merges into the stored labels, `parent` and `model` replace theirs.
 */
export async function updateNode(
  db: SqlClient,
  tipo: string,
  change: {
    properties?: Record<string, unknown> | null;
    label?: Record<string, string>;
    parent?: string;
    model?: string;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `UPDATE dd_ontology SET
         properties = CASE WHEN $2::boolean THEN $3::text::jsonb ELSE properties END,
         term = term || coalesce($4::text::jsonb, '{}'::jsonb),
         parent = coalesce($5, parent),
         model = coalesce($6, model)
       WHERE tipo = $1`,
      [
        tipo,
        change.properties !== undefined,
        change.properties ? JSON.stringify(change.properties) : null,
        change.label ? JSON.stringify(change.label) : null,
        change.parent ?? null,
        change.model ?? null,
      ],
    );
    if (rowCount !== 1) throw new Error(`updateNode: no dd_ontology row ${tipo}`);
  });
}

/** Removes the nodes (children before parents: a removed parent would orphan its children). */
export async function removeNodes(db: SqlClient, tipos: readonly string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM dd_ontology WHERE tipo = ANY($1::text[])', [tipos]);
  });
}

export const removeNode = (db: SqlClient, tipo: string) => removeNodes(db, [tipo]);
