/**
 * Migration 4: the indexes that let an SQO filter avoid scanning every record (filled in by the
 * search module).
 */
import type { Migration } from '../store/migrations.js';

export const SEARCH_INDEX_MIGRATION: Migration = {
  version: 4,
  name: 'search indexes',
  statements: ['SELECT 1'],
};
