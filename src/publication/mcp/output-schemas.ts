/**
 * Output schemas of the MCP tools. They mirror the REST envelopes (data, pagination, meta) so
 * the OpenAPI description explains both doors; `db` and `table` say what a defaulted call
 * actually read. Row shapes depend on the published tables, so rows are open objects; the
 * fragment shapes name the fields the spec fixes and let extensions through.
 */
import * as z from 'zod';

/**
 * An object whose named fields are checked and whose other fields (extensions) pass: open in
 * the JSON Schema clients validate against, and, unlike z.looseObject, assignable from the
 * services' interfaces in TypeScript (it has no index signature).
 */
const open = <S extends z.ZodRawShape>(shape: S) => z.object(shape).meta({ additionalProperties: {} });

const row = z
  .record(z.string(), z.unknown())
  .describe('A row keyed by column name: section_id always, lang on multilingual tables.');

const pagination = z.object({
  limit: z.number(),
  offset: z.number(),
  total: z.number().optional().describe('Every matching row; only when count was true.'),
  next_offset: z.number().optional().describe('Present when more rows follow: pass it as offset.'),
});

export const databasesOutput = z.object({
  databases: z.array(z.object({ name: z.string() })),
  default_db: z.string().nullable().describe('The database tools use when db is left out.'),
});

export const schemaOutput = z.object({
  db: z.string(),
  tables: z
    .array(
      z.object({
        name: z.string(),
        row_count: z.number().describe('An estimate from engine statistics.'),
        column_count: z.number(),
      }),
    )
    .optional()
    .describe('Without table: every table of the database.'),
  table: z
    .object({
      name: z.string(),
      row_count: z.number().describe('Exact.'),
      columns: z.array(z.object({ name: z.string(), type: z.string() })),
      fulltext_columns: z.array(z.string()).describe('Columns fulltext_search can search.'),
    })
    .optional()
    .describe('With table: its columns and exact row count.'),
});

export const recordPageOutput = z.object({
  db: z.string(),
  table: z.string(),
  data: z.array(row),
  pagination,
});

export const searchPageOutput = z.object({
  db: z.string(),
  table: z.string(),
  data: z.array(
    row.describe(
      'A matching row plus relevance (number) and fragments ([{text, position}], matches wrapped in <mark>).',
    ),
  ),
  pagination,
});

export const recordOutput = z.object({
  db: z.string(),
  table: z.string(),
  data: z.array(row).describe('One row per language variant, ordered by lang (one with lang).'),
  meta: z.object({
    section_id: z.number(),
    languages: z.array(z.string()).optional().describe('Every language the record exists in.'),
  }),
});

export const countOutput = z.object({ db: z.string(), table: z.string(), total: z.number() });

export const facetsOutput = z.object({
  db: z.string(),
  table: z.string(),
  data: z.array(
    z.object({
      column: z.string(),
      values: z.array(z.object({ value: z.unknown(), count: z.number() })).describe('Most frequent first.'),
      truncated: z.boolean().describe('More distinct values exist than limit returned.'),
    }),
  ),
});

const fragmentMeta = z.object({ section_id: z.number(), terms: z.string() });

export const textFragmentsOutput = z.object({
  db: z.string(),
  table: z.string(),
  data: z.array(
    open({
      text: z.string().describe('The excerpt; the terms are wrapped in <mark>.'),
      page: z.number().optional(),
      position: z.number().describe('Offset of the match in the stored text.'),
      lang: z.string().optional(),
    }),
  ),
  meta: fragmentMeta,
});

const media = open({
  video_url: z.string().nullable().describe('Video URL with vbegin/vend for the excerpt window.'),
  image_url: z.string().nullable(),
  tc_in: z.number().describe('Seconds.'),
  tc_out: z.number().describe('Seconds.'),
});
const speakers = z.array(open({ name: z.string(), role: z.string() }));

export const avFragmentsOutput = z.object({
  db: z.string(),
  table: z.string(),
  data: z.array(
    open({
      transcription: z.string().describe('The excerpt; the terms are wrapped in <mark>.'),
      media,
      speakers,
    }),
  ),
  meta: fragmentMeta,
});

export const indexationOutput = z.object({
  db: z.string(),
  data: open({
    locator: open({
      section_id: z.number(),
      tag_id: z.number().nullable(),
      tc_in: z.number(),
      tc_out: z.number(),
    }),
    transcription: z.string(),
    media,
    speakers,
    terms: z.array(open({ term_id: z.string(), term: z.string() })),
  }),
  meta: open({
    section_id: z.number(),
    passage: z.string().describe('How the passage was chosen: index (tag_id), timecodes or whole.'),
  }),
});
