/**
 * `counters_status`: each section's id counter beside the highest section_id of its records, so
 * an administrator sees a counter left behind (by a direct insert, a restore) before a create
 * fails on an id that exists. `modify_counter` repairs one: `fix` sets it to the highest
 * section_id (the next create gets that plus one), `reset` removes it (the next create then starts
 * after the highest section_id too). Either is one transaction with its activity row.
 */
import type { Fields } from '../../actions/rqo-fields.js';
import { requiredString } from '../../actions/rqo-fields.js';
import type { ActionContext } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import type { Ontology } from '../../ontology/load-ontology.js';
import { ACTIVITY_SECTION, logActivity } from '../../store/activity.js';
import {
  deleteCounter,
  highestSectionId,
  highestSectionIds,
  readAllCounters,
  readCounter,
  setCounter,
} from '../../store/counters.js';
import type { MatrixTable } from '../../store/matrix-tables.js';
import type { SqlQueryable } from '../../store/sql-client.js';
import { MAINTENANCE_AREA } from '../access.js';
import type { MaintenanceWidget } from '../widget.js';

export interface CounterRow {
  section_tipo: string;
  label: string;
  /**
   * The counter's value, the last id handed out; null: no counter row (new section, or reset),
   * the next create takes last_section_id + 1.
   */
  counter_value: number | null;
  /** The highest positive section_id stored (0: no records). */
  last_section_id: number;
  /** The counter is behind its records: the next create would take an id that exists. */
  out_of_step: boolean;
}

/**
 * The sections whose ids come from matrix_counter. The activity log (dd542) is left out: its ids
 * come from a sequence (migration 5) that nothing but the log itself writes.
 */
function countedSections(ontology: Ontology): { tipo: string; label: string; table: MatrixTable }[] {
  return ontology
    .sections()
    .filter((s) => s.tipo !== ACTIVITY_SECTION)
    .flatMap((s) => {
      const table = ontology.tableOf(s.tipo);
      const label = s.label['lg-eng'] ?? Object.values(s.label)[0] ?? s.tipo;
      return table ? [{ tipo: s.tipo, label, table }] : [];
    });
}

export async function listCounters(db: SqlQueryable, ontology: Ontology): Promise<CounterRow[]> {
  const sections = countedSections(ontology);
  const counters = await readAllCounters(db);
  const highest = new Map<string, number>();
  for (const table of new Set(sections.map((s) => s.table))) {
    for (const [tipo, max] of await highestSectionIds(db, table)) highest.set(tipo, max);
  }
  return sections.map((s) => {
    const counter = counters.get(s.tipo) ?? null;
    const last = highest.get(s.tipo) ?? 0;
    return {
      section_tipo: s.tipo,
      label: s.label,
      counter_value: counter,
      last_section_id: last,
      out_of_step: counter !== null && counter < last,
    };
  });
}

const COUNTER_ACTIONS = ['fix', 'reset'] as const;

async function modifyCounter(ctx: ActionContext, options: Fields) {
  const sectionTipo = requiredString(options, 'section_tipo', 'options.section_tipo');
  const counterAction = requiredString(options, 'counter_action', 'options.counter_action');
  if (!(COUNTER_ACTIONS as readonly string[]).includes(counterAction)) {
    throw new WorkError('rqo.invalid_field', 'options.counter_action must be "fix" or "reset"');
  }
  const section = countedSections(ctx.ontology).find((s) => s.tipo === sectionTipo);
  if (!section) {
    throw new WorkError(
      'rqo.invalid_field',
      `options.section_tipo ${JSON.stringify(sectionTipo.slice(0, 64))} is not a section with a counter`,
    );
  }
  await ctx.db.transaction(async (tx) => {
    // The counter row is locked first (FOR UPDATE), so a create running now either commits
    // before we read the highest id or waits for this transaction.
    await tx.query('SELECT value FROM matrix_counter WHERE section_tipo = $1 FOR UPDATE', [sectionTipo]);
    const before = await readCounter(tx, sectionTipo);
    const highest = await highestSectionId(tx, section.table, sectionTipo);
    if (counterAction === 'fix') await setCounter(tx, sectionTipo, highest);
    else await deleteCounter(tx, sectionTipo);
    await logActivity(tx, {
      userId: ctx.session!.userId,
      what: 'modify_counter',
      where: MAINTENANCE_AREA,
      when: ctx.now,
      data: {
        section_tipo: sectionTipo,
        counter_action: counterAction,
        counter_before: before,
        counter_after: counterAction === 'fix' ? highest : null,
        request_id: ctx.requestId,
      },
    });
  });
  return {
    result: true,
    msg: `OK. ${counterAction} counter successfully ${sectionTipo}`,
    datalist: await listCounters(ctx.db, ctx.ontology),
  };
}

export const countersStatusWidget: MaintenanceWidget = {
  value: {
    globalAdminOnly: false,
    run: async (ctx) => ({ datalist: await listCounters(ctx.db, ctx.ontology), errors: [] }),
  },
  methods: {
    modify_counter: { globalAdminOnly: true, run: modifyCounter },
  },
};
