/**
 * Every maintenance widget, by the name a request gives in `source.model`. A Map: names like
 * `constructor` or `__proto__` are simply unknown.
 */
import type { MaintenanceWidget } from './widget.js';
import { countersStatusWidget } from './widgets/counters-status.js';
import { sessionsWidget } from './widgets/sessions.js';
import { sweepWidget } from './widgets/sweep.js';
import { systemStatusWidget } from './widgets/system-status.js';

export const MAINTENANCE_WIDGETS: ReadonlyMap<string, MaintenanceWidget> = new Map([
  ['counters_status', countersStatusWidget],
  ['system_status', systemStatusWidget],
  ['sessions', sessionsWidget],
  ['sweep', sweepWidget],
]);
