/** Placeholder: this action is being built (issue 8). */
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';

export const createAction: ActionDefinition = {
  needsSession: true,
  handle: async () => {
    throw new WorkError('request.unknown_action', 'Not built yet');
  },
};
