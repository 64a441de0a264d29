/**
 * The work database schema as an ordered list of versioned migrations. A migration, once
 * released, is never edited: a change is a new migration with the next version. Each is a list
 * of single statements (PGlite's extended protocol runs one statement per call) that
 * migrate-schema.ts applies in one transaction.
 */

import { LIST_INDEX_MIGRATION } from '../search/list-index-migration.js';
import {
  SEARCH_INDEX_MIGRATION,
  searchTriggers,
  searchTruncateFunction,
} from '../search/search-index-migration.js';
import { MATRIX_TABLES_V1 } from './matrix-tables.js';
import type { Migration } from './migration.js';

/**
 * A matrix table: one row per record, component data as JSONB keyed by component tipo, grouped
 * by value type (docs/ontology.md). The GIN index on `relation` serves the inverse
 * reference lookups ("who points at this record") that delete and `sqo.mode: related` need.
 */
function matrixTable(name: string): string[] {
  return [
    `CREATE TABLE ${name} (
      section_tipo text NOT NULL,
      section_id integer NOT NULL,
      string jsonb NOT NULL DEFAULT '{}'::jsonb,
      relation jsonb NOT NULL DEFAULT '{}'::jsonb,
      date jsonb NOT NULL DEFAULT '{}'::jsonb,
      number jsonb NOT NULL DEFAULT '{}'::jsonb,
      media jsonb NOT NULL DEFAULT '{}'::jsonb,
      misc jsonb NOT NULL DEFAULT '{}'::jsonb,
      meta jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      created_by integer,
      modified_at timestamptz,
      modified_by integer,
      PRIMARY KEY (section_tipo, section_id)
    )`,
    `CREATE INDEX ${name}_relation_gin ON ${name} USING gin (relation jsonb_path_ops)`,
  ];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'matrix tables, counters, history, sessions, login throttling, component locks',
    statements: [
      ...MATRIX_TABLES_V1.flatMap(matrixTable),
      // One row per section tipo; allocation is a single upsert, atomic under concurrency.
      `CREATE TABLE matrix_counter (
        section_tipo text PRIMARY KEY,
        value integer NOT NULL CHECK (value >= 0)
      )`,
      // A row per saved component value (kind 'component', the value before the save) and a
      // whole-record snapshot before delete_record (kind 'snapshot', tipo NULL).
      `CREATE TABLE matrix_time_machine (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('component', 'snapshot')),
        section_tipo text NOT NULL,
        section_id integer NOT NULL,
        tipo text,
        lang text,
        data jsonb NOT NULL,
        user_id integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'component') = (tipo IS NOT NULL))
      )`,
      `CREATE INDEX matrix_time_machine_record ON matrix_time_machine
        (section_tipo, section_id, tipo, created_at)`,
      // Only the SHA-256 of the cookie token is kept: a leaked table does not open sessions.
      // Idle expiry is checked against last_seen_at; expires_at is the absolute limit.
      `CREATE TABLE sessions (
        token_sha256 text PRIMARY KEY CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
        user_id integer NOT NULL,
        csrf_token text NOT NULL,
        application_lang text,
        data_lang text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`,
      'CREATE INDEX sessions_user ON sessions (user_id)',
      'CREATE INDEX sessions_expires_at ON sessions (expires_at)',
      // Keyed by what is being throttled (for example "user:<name>" or "addr:<ip>").
      `CREATE TABLE login_throttle (
        throttle_key text PRIMARY KEY,
        failures integer NOT NULL DEFAULT 0,
        window_started_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz
      )`,
      // One holder per component of a record; the primary key makes taking a lock atomic.
      `CREATE TABLE component_locks (
        section_tipo text NOT NULL,
        section_id integer NOT NULL,
        component_tipo text NOT NULL,
        user_id integer NOT NULL,
        locked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (section_tipo, section_id, component_tipo)
      )`,
      'CREATE INDEX component_locks_user ON component_locks (user_id)',
    ],
  },
  {
    version: 2,
    name: 'permissions version, bumped by every write to users and profiles',
    statements: [
      // One row. Servers cache each user's permissions tagged with this number and compare it
      // once per request, so an instance sees a change another instance committed. A row (not
      // a sequence) because the bump must commit or roll back with the write that caused it.
      `CREATE TABLE permissions_version (
        id integer PRIMARY KEY CHECK (id = 1),
        version bigint NOT NULL
      )`,
      'INSERT INTO permissions_version (id, version) VALUES (1, 1)',
      `CREATE FUNCTION bump_permissions_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE permissions_version SET version = version + 1 WHERE id = 1;
        RETURN NULL;
      END
      $$`,
      // Statement-level triggers: any write, from the API or from an operator's SQL, counts.
      ...['matrix_users', 'matrix_profiles'].map(
        (name) => `CREATE TRIGGER ${name}_permissions_version
          AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${name}
          FOR EACH STATEMENT EXECUTE FUNCTION bump_permissions_version()`,
      ),
    ],
  },
  {
    version: 3,
    name: 'text search extensions, idempotency keys',
    statements: [
      // Trusted extensions since PostgreSQL 13 (a database owner may create them); PGlite loads
      // them at open (pglite-client.ts). Used by the search indexes of migration 4.
      'CREATE EXTENSION IF NOT EXISTS pg_trgm',
      'CREATE EXTENSION IF NOT EXISTS unaccent',
      // A write retried with the same idempotency_key by the same session answers the stored
      // answer instead of running again. A row is claimed (answer NULL) before the write runs.
      `CREATE TABLE idempotency_keys (
        token_sha256 text NOT NULL,
        idem_key text NOT NULL,
        created_at timestamptz NOT NULL,
        answer jsonb,
        PRIMARY KEY (token_sha256, idem_key)
      )`,
      'CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)',
    ],
  },
  SEARCH_INDEX_MIGRATION,
  {
    version: 5,
    name: 'activity section ids from a sequence',
    statements: [
      // A sequence, not the matrix_counter row: nextval never waits for another transaction,
      // so concurrent writes do not queue behind each other's commit to log their activity.
      'CREATE SEQUENCE matrix_activity_section_id_seq AS integer',
      `SELECT setval('matrix_activity_section_id_seq',
        GREATEST((SELECT COALESCE(max(section_id), 0) FROM matrix_activity),
                 (SELECT COALESCE(max(value), 0) FROM matrix_counter WHERE section_tipo = 'dd542')) + 1,
        false)`,
    ],
  },
  {
    version: 6,
    name: 'component locks held by a session, with a heartbeat expiry',
    statements: [
      // Rows of before this version name no session: none can still be held.
      'DELETE FROM component_locks',
      // A lock belongs to the session that took it: ending the session (quit, expiry, an
      // administrator ending it, the sweep) deletes the lock with it, on every instance.
      `ALTER TABLE component_locks ADD COLUMN session_sha256 text NOT NULL
        REFERENCES sessions (token_sha256) ON DELETE CASCADE`,
      // locked_at is "since when" (the first focus); each focus renews renewed_at and pushes
      // expires_at to renewed_at + 150 s. A lock past expires_at is free for anyone to take.
      'ALTER TABLE component_locks ADD COLUMN renewed_at timestamptz NOT NULL',
      'ALTER TABLE component_locks ADD COLUMN expires_at timestamptz NOT NULL',
      'CREATE INDEX component_locks_session ON component_locks (session_sha256)',
      'CREATE INDEX component_locks_expires_at ON component_locks (expires_at)',
    ],
  },
  {
    version: 7,
    name: 'login throttling per (username, address), known addresses, last sweep',
    statements: [
      // Throttle rows are kept per scope: a (username, address) pair with an exponential back-off,
      // an address across usernames, a username across addresses (auth/login-throttle.ts). The
      // rows of the old per-key table only count failures of the last 15 minutes: not kept.
      'DROP TABLE login_throttle',
      `CREATE TABLE login_throttle (
        scope text NOT NULL CHECK (scope IN ('pair', 'address', 'username')),
        username text NOT NULL DEFAULT '',
        address text NOT NULL DEFAULT '',
        failures integer NOT NULL,
        window_started_at timestamptz NOT NULL,
        locked_until timestamptz,
        PRIMARY KEY (scope, username, address)
      )`,
      // Where each user last logged in from: the per-username cap does not apply there.
      `CREATE TABLE login_known_addresses (
        username text NOT NULL,
        address text NOT NULL,
        last_success_at timestamptz NOT NULL,
        PRIMARY KEY (username, address)
      )`,
      // Activity dates were written as {id, lang, value: {start}}; a date item is {id, lang, start}
      // (store/activity.ts), which the date filters and readers expect.
      `UPDATE matrix_activity
       SET date = jsonb_set(date, '{dd547,0}',
         ((date->'dd547'->0) - 'value') || (date->'dd547'->0->'value'))
       WHERE section_tipo = 'dd542' AND jsonb_typeof(date->'dd547'->0->'value') = 'object'`,
      // One row: what the last sweep (timer or maintenance widget, any instance) removed.
      `CREATE TABLE last_sweep (
        id integer PRIMARY KEY CHECK (id = 1),
        ran_at timestamptz NOT NULL,
        trigger text NOT NULL,
        purged jsonb NOT NULL
      )`,
    ],
  },
  {
    version: 8,
    name: 'publish watermarks',
    statements: [
      // One row per publication target: the time of its last clean publish run (src/publish/).
      // An incremental run publishes the records created, saved or deleted since then.
      `CREATE TABLE publish_watermarks (
        target text PRIMARY KEY,
        published_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 9,
    name: 'indexes for incremental publish runs',
    statements: [
      // An incremental publish run (src/publish/work-source.ts) reads the mapped sections' records
      // WHERE section_tipo = ANY(...) AND (created_at >= $since OR modified_at >= $since): one
      // index per time column lets the planner OR two index scans instead of reading the table.
      // Not on matrix_activity: its rows are written on every save and never published.
      ...MATRIX_TABLES_V1.filter((t) => t !== 'matrix_activity').flatMap((t) => [
        `CREATE INDEX ${t}_created_at ON ${t} (section_tipo, created_at)`,
        `CREATE INDEX ${t}_modified_at ON ${t} (section_tipo, modified_at)`,
      ]),
      // ... and the deletion snapshots since then.
      `CREATE INDEX matrix_time_machine_snapshot_created_at ON matrix_time_machine
        (section_tipo, created_at) WHERE kind = 'snapshot'`,
    ],
  },
  {
    version: 10,
    name: 'component versions',
    statements: [
      // Per component tipo, the id of the matrix_time_machine row its last write wrote (that
      // row says who and when): a save naming an older version is refused instead of silently
      // overwriting newer work (records/stale-write.ts). A constant default: adding the column
      // rewrites nothing, and every existing component starts at version 0 ("never saved
      // through the work API"), its data untouched.
      ...MATRIX_TABLES_V1.map(
        (t) => `ALTER TABLE ${t} ADD COLUMN versions jsonb NOT NULL DEFAULT '{}'::jsonb`,
      ),
    ],
  },
  {
    version: 11,
    name: 'server secrets; login throttling per device cookie',
    statements: [
      // Secrets every instance must share (the device cookie's HMAC key, auth/device-cookie.ts),
      // generated by the first instance that needs one (store/server-secrets.ts).
      `CREATE TABLE server_secrets (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      // A device cookie's failures are counted under its nonce (scope 'device', address = nonce).
      'ALTER TABLE login_throttle DROP CONSTRAINT login_throttle_scope_check',
      `ALTER TABLE login_throttle ADD CONSTRAINT login_throttle_scope_check
        CHECK (scope IN ('pair', 'address', 'username', 'device'))`,
    ],
  },
  {
    version: 12,
    name: 'the ontology as data: dd_ontology, the TLD registry, languages, ontology version',
    statements: [
      // One row per element, in the shape of Dédalo 7's dd_ontology (ontology/ontology-store.ts).
      // term: labels by language; relations: [{tipo}] (a relation component's target sections);
      // order_number: the order among siblings. The default content is installed by the first
      // start (an empty table), so a database of before this version keeps every record as it is.
      `CREATE TABLE dd_ontology (
        tipo text PRIMARY KEY CHECK (tipo ~ '^[a-z]+[0-9]+$'),
        parent text,
        term jsonb NOT NULL DEFAULT '{}'::jsonb,
        model text NOT NULL,
        order_number integer NOT NULL DEFAULT 0,
        relations jsonb,
        tld text NOT NULL CHECK (tld ~ '^[a-z]{2,}$'),
        properties jsonb,
        model_tipo text,
        is_model boolean NOT NULL DEFAULT false,
        is_translatable boolean NOT NULL DEFAULT false,
        is_main boolean NOT NULL DEFAULT false
      )`,
      'CREATE INDEX dd_ontology_parent ON dd_ontology (parent, order_number)',
      'CREATE INDEX dd_ontology_tld ON dd_ontology (tld)',
      // The TLD registry (Dédalo's main_dd): which TLDs are installed, and from where.
      `CREATE TABLE main_dd (
        tld text PRIMARY KEY CHECK (tld ~ '^[a-z]{2,}$'),
        name text NOT NULL,
        counter integer NOT NULL DEFAULT 0,
        source text,
        installed_at timestamptz NOT NULL DEFAULT now()
      )`,
      // The languages a client may choose for data and interface (lg-nolan included).
      `CREATE TABLE dd_ontology_languages (
        code text PRIMARY KEY CHECK (code ~ '^lg-[a-z]{2,8}$'),
        label text NOT NULL,
        order_number integer NOT NULL DEFAULT 0
      )`,
      // One row, as permissions_version: servers compare it once per request and reload the
      // ontology when it moved, so a change committed anywhere reaches every instance.
      `CREATE TABLE ontology_version (
        id integer PRIMARY KEY CHECK (id = 1),
        version bigint NOT NULL
      )`,
      'INSERT INTO ontology_version (id, version) VALUES (1, 1)',
      `CREATE FUNCTION bump_ontology_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE ontology_version SET version = version + 1 WHERE id = 1;
        RETURN NULL;
      END
      $$`,
      ...['dd_ontology', 'main_dd', 'dd_ontology_languages'].map(
        (name) => `CREATE TRIGGER ${name}_ontology_version
          AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${name}
          FOR EACH STATEMENT EXECUTE FUNCTION bump_ontology_version()`,
      ),
    ],
  },
  {
    version: 13,
    name: 'the ontology as records: matrix_ontology, matrix_ontology_main; areas oh0/rsc0 renamed',
    statements: [
      // Records of the per-TLD ontology sections `<tld>0` (one per node, section_id = the number
      // of its tipo) and of the TLD registry section (ontology/ontology-records.ts). Built as every
      // matrix table is (migrations 1, 4, 9, 10): the same columns, versions, indexes and search.
      ...['matrix_ontology', 'matrix_ontology_main'].flatMap((t) => [
        ...matrixTable(t),
        `ALTER INDEX ${t}_relation_gin SET (fastupdate = off)`,
        `ALTER TABLE ${t} ADD COLUMN versions jsonb NOT NULL DEFAULT '{}'::jsonb`,
        `CREATE INDEX ${t}_created_at ON ${t} (section_tipo, created_at)`,
        `CREATE INDEX ${t}_modified_at ON ${t} (section_tipo, modified_at)`,
        ...searchTriggers(t),
      ]),
      searchTruncateFunction(),
      // `<tld>0` is the tipo of a TLD's ontology section now; our two areas that used it move to
      // the 9000 range of the project's own tipos, with their children and profile grants.
      ...[
        ['oh0', 'oh9000'],
        ['rsc0', 'rsc9000'],
      ].flatMap(([from, to]) => [
        `UPDATE dd_ontology SET tipo = '${to}' WHERE tipo = '${from}'`,
        `UPDATE dd_ontology SET parent = '${to}' WHERE parent = '${from}'`,
        `UPDATE matrix_profiles SET misc = jsonb_set(misc, '{dd774}', (
           SELECT jsonb_agg(CASE WHEN i ->> 'tipo' = '${from}' OR i ->> 'section_tipo' = '${from}'
             THEN i || jsonb_build_object(
               'tipo', CASE WHEN i ->> 'tipo' = '${from}' THEN '${to}' ELSE i ->> 'tipo' END,
               'section_tipo', CASE WHEN i ->> 'section_tipo' = '${from}' THEN '${to}' ELSE i ->> 'section_tipo' END)
             ELSE i END ORDER BY n)
           FROM jsonb_array_elements(misc -> 'dd774') WITH ORDINALITY AS e(i, n)))
         WHERE jsonb_typeof(misc -> 'dd774') = 'array' AND jsonb_array_length(misc -> 'dd774') > 0
           AND (misc -> 'dd774' @> '[{"tipo": "${from}"}]' OR misc -> 'dd774' @> '[{"section_tipo": "${from}"}]')`,
      ]),
    ],
  },
  {
    version: 14,
    name: 'collection imports: the imports register, import ids on history and activity rows',
    statements: [
      // One row per import run (collections/import-records.ts): who, which file, when, what it
      // did, and whether it was undone.
      `CREATE TABLE imports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        file_name text NOT NULL,
        kind text NOT NULL,
        section_tipo text,
        user_id integer NOT NULL,
        via text NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
        counts jsonb NOT NULL DEFAULT '{}'::jsonb,
        report jsonb,
        undone_at timestamptz,
        undone_by integer
      )`,
      // Every history and activity row written inside an import's transaction carries its id,
      // whatever code path writes it (a save's observers, inverse references, created records):
      // the importer sets these settings for its transaction (SET LOCAL), the defaults read them.
      // current_setting is stable, so existing rows get NULL without a table rewrite.
      ...['matrix_time_machine', 'matrix_activity'].flatMap((t) => [
        `ALTER TABLE ${t} ADD COLUMN import_id bigint
          DEFAULT NULLIF(current_setting('dedalo.import_id', true), '')::bigint`,
        `ALTER TABLE ${t} ADD COLUMN undo_of_import bigint
          DEFAULT NULLIF(current_setting('dedalo.undo_import_id', true), '')::bigint`,
      ]),
      `CREATE INDEX matrix_time_machine_import ON matrix_time_machine (import_id)
        WHERE import_id IS NOT NULL`,
      // Each record an import touched: created by it, or its whole row as it was before the
      // import's first write (undo puts it back), and its versions after the import's last
      // write (undo refuses a record someone changed since). Filled by a trigger, so a record
      // written by any code path inside the import's transaction is covered.
      `CREATE TABLE import_records (
        import_id bigint NOT NULL REFERENCES imports (id),
        table_name text NOT NULL,
        section_tipo text NOT NULL,
        section_id integer NOT NULL,
        created boolean NOT NULL,
        before jsonb,
        after_versions jsonb NOT NULL,
        PRIMARY KEY (import_id, section_tipo, section_id)
      )`,
      `CREATE FUNCTION import_capture() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        run bigint := NULLIF(current_setting('dedalo.import_id', true), '')::bigint;
      BEGIN
        IF run IS NULL THEN RETURN NULL; END IF;
        IF TG_OP = 'INSERT' THEN
          INSERT INTO import_records (import_id, table_name, section_tipo, section_id, created, before, after_versions)
          VALUES (run, TG_TABLE_NAME, NEW.section_tipo, NEW.section_id, true, NULL, NEW.versions)
          ON CONFLICT (import_id, section_tipo, section_id) DO UPDATE SET after_versions = EXCLUDED.after_versions;
        ELSE
          INSERT INTO import_records (import_id, table_name, section_tipo, section_id, created, before, after_versions)
          VALUES (run, TG_TABLE_NAME, OLD.section_tipo, OLD.section_id, false, to_jsonb(OLD), NEW.versions)
          ON CONFLICT (import_id, section_tipo, section_id) DO UPDATE SET after_versions = EXCLUDED.after_versions;
        END IF;
        RETURN NULL;
      END
      $$`,
      // The matrix tables as they stand at this version (the activity log is not undone).
      ...[
        'matrix',
        'matrix_users',
        'matrix_profiles',
        'matrix_projects',
        'matrix_hierarchy',
        'matrix_ontology',
        'matrix_ontology_main',
      ].map(
        (t) => `CREATE TRIGGER ${t}_import_capture AFTER INSERT OR UPDATE ON ${t}
          FOR EACH ROW EXECUTE FUNCTION import_capture()`,
      ),
    ],
  },
  {
    version: 15,
    name: 'the activity log out of the string search side table',
    statements: [
      // The activity log is written on every save, login and read (an import: once per record)
      // and its texts are searched only by its own list, which reads the rows' items
      // (search/string-search-tables.ts): its two trigram index entries per row cost every write
      // more than the rest of its row.
      'DROP TRIGGER matrix_activity_string_search ON matrix_activity',
      `DELETE FROM matrix_string_search s USING matrix_activity a
        WHERE s.section_tipo = a.section_tipo AND s.section_id = a.section_id`,
    ],
  },
  LIST_INDEX_MIGRATION,
];
