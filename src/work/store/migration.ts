/**
 * One versioned step of the work database schema (the list is migrations.ts; migrate-schema.ts
 * applies each in one transaction). A module of its own so that migrations kept beside the code
 * they serve (search/search-index-migration.ts) and the list that gathers them do not import
 * each other.
 */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}
