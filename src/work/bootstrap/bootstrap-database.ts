/**
 * First start: brings the schema up to date, installs the default ontology into an empty
 * `dd_ontology` (ontology/ontology-store.ts) and, when the database has no root user yet, creates
 * the starting records in one transaction: the yes/no list (dd64 1 = yes, 2 = no), the default
 * project dd153/1, the Admin and Cataloguer profiles, root (dd128/-1) and the counters. Root's
 * existence is the marker, so a restart never recreates a profile an administrator deleted or
 * renamed, and a crash half-way leaves nothing half-made. On an existing installation, the
 * default Cataloguer profile, while untouched, gets the rights later releases added to it
 * (profile-top-up.ts).
 */
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../auth/password-hash.js';
import { NO_LANG, type Ontology } from '../ontology/load-ontology.js';
import { ensureOntologyRecords } from '../ontology/ontology-edit.js';
import { installDefaultOntology } from '../ontology/ontology-store.js';
import { setCounter } from '../store/counters.js';
import type { MatrixTable } from '../store/matrix-tables.js';
import { migrateSchema } from '../store/migrate-schema.js';
import { insertRecord, type RecordColumns, type RecordKey, recordExists } from '../store/records.js';
import type { SqlClient, SqlQueryable } from '../store/sql-client.js';
import { defaultProfiles } from './default-profiles.js';
import { topUpCataloguerProfile } from './profile-top-up.js';

export const ROOT_USER_ID = -1;
export const ROOT_USERNAME = 'root';
export const DEFAULT_PROJECT_ID = 1;
export const YES_ID = 1;
export const NO_ID = 2;

/** Arbitrary constant shared by every instance: "the database is being bootstrapped". */
const BOOTSTRAP_LOCK_KEY = 7_314_200_502;

export interface BootstrapReport {
  /** Migration versions applied by this start. */
  migrationsApplied: number[];
  /** True when this start installed the default ontology into an empty dd_ontology table. */
  ontologyInstalled: boolean;
  /** True when this start created root and the starting records. */
  created: boolean;
  /** Access items this start added to the untouched default Cataloguer profile (existing installs). */
  cataloguerTopUp?: number;
  /** Set only when created without DEDALO_ROOT_PASSWORD: shown once to the operator, never stored. */
  generatedRootPassword?: string;
}

/** Component values of one record, by component tipo. */
type ComponentValues = Record<string, unknown[]>;

/** Literal items `{id, lang, value}`, ids minted from 1 in order. */
const literal = (...pairs: [lang: string, value: unknown][]) =>
  pairs.map(([lang, value], i) => ({ id: i + 1, lang, value }));

/** A link locator (type dd151) from a component to a record. */
const link = (fromComponent: string, sectionTipo: string, sectionId: number, type = 'dd151') => ({
  type,
  section_tipo: sectionTipo,
  section_id: sectionId,
  from_component_tipo: fromComponent,
});

class SeedWriter {
  constructor(
    private readonly tx: SqlQueryable,
    private readonly ontology: Ontology,
  ) {}

  /** Groups values into their typed columns and records each component's last item id in meta. */
  async insert(sectionTipo: string, sectionId: number, values: ComponentValues): Promise<void> {
    const columns: RecordColumns = {};
    const meta: Record<string, number> = {};
    for (const [tipo, items] of Object.entries(values)) {
      const column = this.ontology.dataColumnOf(tipo);
      if (!column || this.ontology.sectionOf(tipo)?.tipo !== sectionTipo) {
        throw new Error(`bootstrap: ${tipo} is not a component of ${sectionTipo}`);
      }
      columns[column] = { ...columns[column], [tipo]: items };
      // Locators and dd774 items have no id; literal items do.
      const ids = items.map((item) => (item as { id?: unknown }).id).filter((id) => typeof id === 'number');
      if (ids.length > 0) meta[tipo] = Math.max(...(ids as number[]));
    }
    const key: RecordKey = { section_tipo: sectionTipo, section_id: sectionId };
    await insertRecord(this.tx, this.table(sectionTipo), key, columns, meta, ROOT_USER_ID);
  }

  table(sectionTipo: string): MatrixTable {
    const table = this.ontology.tableOf(sectionTipo);
    if (!table) throw new Error(`bootstrap: ${sectionTipo} is not a section`);
    return table;
  }
}

/**
 * The component that holds the yes/no list's labels: its first text component in the ontology
 * (dd62 in the default content; Dédalo's own `dd` TLD has another one), so the list is labelled
 * whichever `dd` the archive was started with.
 */
function yesNoValueTipo(ontology: Ontology): string {
  const value = ontology.sectionComponents('dd64').find((c) => c.model === 'component_input_text');
  if (!value) throw new Error('bootstrap: the yes/no list dd64 has no text component for its labels');
  return value.tipo;
}

const rootKey: RecordKey = { section_tipo: 'dd128', section_id: ROOT_USER_ID };

async function hasRoot(db: SqlQueryable, ontology: Ontology): Promise<boolean> {
  return recordExists(db, ontology.tableOf('dd128')!, rootKey);
}

/**
 * `ontology` is the one to write the starting records with, or a function that loads it from the
 * database once the schema and the ontology tables are in place (server.ts).
 */
export async function bootstrapDatabase(
  client: SqlClient,
  ontologyOrLoader: Ontology | ((db: SqlClient) => Promise<Ontology>),
  options: { rootPassword?: string } = {},
): Promise<BootstrapReport> {
  const { applied } = await migrateSchema(client);
  const ontologyInstalled = await installDefaultOntology(client);
  // The ontology's records (the editing surface) for every TLD that has none yet.
  await ensureOntologyRecords(client);
  const ontology = typeof ontologyOrLoader === 'function' ? await ontologyOrLoader(client) : ontologyOrLoader;
  const done = { migrationsApplied: applied, ontologyInstalled };
  if (await hasRoot(client, ontology)) {
    const added = await topUpCataloguerProfile(client, ontology, new Date());
    return { ...done, created: false, ...(added.length > 0 ? { cataloguerTopUp: added.length } : {}) };
  }

  // Hash outside the transaction (it takes tens of milliseconds) and only when needed.
  const generated = options.rootPassword === undefined ? randomBytes(18).toString('base64url') : undefined;
  const passwordHash = await hashPassword(options.rootPassword ?? generated!);

  const created = await client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
    // Another instance may have bootstrapped while we hashed.
    if (await hasRoot(tx, ontology)) return false;
    const seed = new SeedWriter(tx, ontology);

    const yesNoValue = yesNoValueTipo(ontology);
    await seed.insert('dd64', YES_ID, {
      [yesNoValue]: literal(['lg-eng', 'Yes'], ['lg-spa', 'Sí'], ['lg-cat', 'Sí']),
    });
    await seed.insert('dd64', NO_ID, {
      [yesNoValue]: literal(['lg-eng', 'No'], ['lg-spa', 'No'], ['lg-cat', 'No']),
    });
    await setCounter(tx, 'dd64', NO_ID);

    await seed.insert('dd153', DEFAULT_PROJECT_ID, {
      dd156: literal(
        ['lg-eng', 'Default project'],
        ['lg-spa', 'Proyecto por defecto'],
        ['lg-cat', 'Projecte per defecte'],
      ),
    });
    await setCounter(tx, 'dd153', DEFAULT_PROJECT_ID);

    const profiles = defaultProfiles(ontology);
    for (const profile of profiles) {
      await seed.insert('dd234', profile.section_id, {
        dd237: literal([NO_LANG, profile.name]),
        dd774: profile.access,
      });
    }
    await setCounter(tx, 'dd234', Math.max(...profiles.map((p) => p.section_id)));

    await seed.insert('dd128', ROOT_USER_ID, {
      dd132: literal([NO_LANG, ROOT_USERNAME]),
      dd133: literal([NO_LANG, passwordHash]),
      dd452: literal([NO_LANG, 'Root']),
      dd1725: [link('dd1725', 'dd234', profiles[0]!.section_id)],
      dd170: [link('dd170', 'dd153', DEFAULT_PROJECT_ID, 'dd675')],
      dd244: [link('dd244', 'dd64', YES_ID)],
      dd131: [link('dd131', 'dd64', YES_ID)],
    });
    // Root is -1; the first user created through the API gets 1.
    await setCounter(tx, 'dd128', 0);
    return true;
  });
  return created ? { ...done, created, generatedRootPassword: generated } : { ...done, created };
}
