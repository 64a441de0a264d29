/**
 * `sweep`: the last sweep (when, what it removed) and the timer's interval; `run` sweeps now.
 */

import { lastSweep, runSweep } from '../sweep.js';
import type { MaintenanceWidget } from '../widget.js';

export const sweepWidget: MaintenanceWidget = {
  value: {
    globalAdminOnly: false,
    run: async ({ db, config }) => ({
      interval_seconds: config.sweepIntervalSeconds,
      last_run: await lastSweep(db),
    }),
  },
  methods: {
    run: {
      globalAdminOnly: false,
      run: ({ db, config, now, log }) => runSweep({ db, dataDir: config.dataDir, now }, 'widget', log),
    },
  },
};
