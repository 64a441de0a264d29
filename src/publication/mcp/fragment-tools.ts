/**
 * Fragment tools: the passages of one record where words occur (text, or transcription with its
 * video window and speakers), and the passage a thesaurus indexation points at. Each is a row
 * mapping its arguments onto a read operation (operations/fragments.ts).
 */
import * as z from 'zod';
import {
  avFragmentsOperation,
  indexationFragmentOperation,
  textFragmentsOperation,
} from '../operations/fragments.js';
import { DEFAULT_TEXT_COLUMN, FRAGMENT_BOUNDS } from '../query/fragment-requests.js';
import { avFragmentsOutput, indexationOutput, textFragmentsOutput } from './output-schemas.js';
import { type DbArg, idArg, integerArg, langArg, tableArg, toolInput } from './tool-args.js';
import { databaseOf, defineTool, type McpTool, operationTool, runOperation } from './tool-definition.js';

const termsArg = z.string().meta({
  minLength: FRAGMENT_BOUNDS.terms.min,
  maxLength: FRAGMENT_BOUNDS.terms.max,
  description: 'Words to find, separated by spaces; literal (no operators), case- and accent-insensitive.',
});
const maxCharactersArg = integerArg(
  'Context size of each fragment, in characters.',
  FRAGMENT_BOUNDS.maxCharacters,
);
const maxOccurrencesArg = integerArg('Fragments per term at most.', FRAGMENT_BOUNDS.maxOccurrences);

const secondsArg = (what: string) =>
  z
    .number()
    .optional()
    .meta({ minimum: 0, description: `${what}, in seconds (up to 3 decimals).` });
const tipoArg = (description: string) =>
  z.string().optional().meta({ pattern: FRAGMENT_BOUNDS.tipo.pattern.source, description });

export function fragmentTools(dbArg: DbArg): McpTool[] {
  return [
    operationTool({
      name: 'get_text_fragment',
      title: 'Passages of a record where words occur',
      description:
        'Returns highlighted excerpts (<mark>) of one text column of one record around the given words, with their page and position. Use it after fulltext_search (or search_records) to read what an interview says about a word. Without lang every language variant is searched.',
      input: toolInput({
        db: dbArg,
        table: tableArg,
        id: idArg,
        terms: termsArg,
        column: z
          .string()
          .optional()
          .meta({ default: DEFAULT_TEXT_COLUMN, description: 'The text column to search.' }),
        lang: langArg,
        max_characters: maxCharactersArg,
        max_occurrences: maxOccurrencesArg,
      }),
      output: textFragmentsOutput,
      operation: textFragmentsOperation,
      call: (args) => ({
        params: { table: args.table, id: String(args.id) },
        query: (p) =>
          p
            .set('terms', args.terms)
            .set('column', args.column)
            .set('lang', args.lang)
            .set('max_characters', args.max_characters)
            .set('max_occurrences', args.max_occurrences),
      }),
      answer: ({ body }, args, db) => ({
        structured: { db, table: args.table, data: body.data, meta: body.meta },
        summary: `${body.data.length} fragment(s) of ${args.table} ${body.meta.section_id} (${args.column ?? DEFAULT_TEXT_COLUMN}) for "${body.meta.terms}".`,
      }),
    }),
    defineTool({
      name: 'get_av_fragment',
      title: 'Video passages of an interview where words occur',
      description:
        'Like get_text_fragment over the transcription of an audiovisual record, but each excerpt also carries its media window (video URL with vbegin/vend, poster image, tc_in/tc_out in seconds) and the speakers. Use it to point a person at the moment of the video where something is said. table may be left out, as the reference implementation allows: it defaults to the table holding the transcriptions (AV_TABLE).',
      input: toolInput({
        db: dbArg,
        table: tableArg
          .optional()
          .describe("Table holding the transcription; default the server's AV_TABLE."),
        id: idArg,
        terms: termsArg,
        lang: langArg,
        max_characters: maxCharactersArg,
        max_occurrences: maxOccurrencesArg,
      }),
      output: avFragmentsOutput,
      run: async (ctx, args) => {
        const db = databaseOf(ctx, args.db);
        const table = args.table ?? ctx.config.av.table;
        const { body } = await runOperation(ctx, avFragmentsOperation, db, {
          params: { table, id: String(args.id) },
          query: (p) =>
            p
              .set('terms', args.terms)
              .set('lang', args.lang)
              .set('max_characters', args.max_characters)
              .set('max_occurrences', args.max_occurrences),
        });
        return {
          structured: { db, table, data: body.data, meta: body.meta },
          summary: `${body.data.length} audiovisual fragment(s) of ${table} ${body.meta.section_id} for "${body.meta.terms}".`,
        };
      },
    }),
    operationTool({
      name: 'get_av_indexation_fragment',
      title: 'The passage a thesaurus indexation points at',
      description:
        'Returns the transcription passage an indexation locator points at (by tag_id, else by the tc_in..tc_out window, else the whole transcription), with its media window, speakers and the thesaurus terms indexing it. Use it when a thesaurus term or an indexation locator (section_id, tag_id) leads to an interview.',
      input: toolInput({
        db: dbArg,
        section_id: idArg.describe('The record whose transcription holds the passage.'),
        section_tipo: tipoArg(
          'Section tipo of the record, e.g. oh1; default: the configured audiovisual table.',
        ),
        component_tipo: tipoArg('Component tipo the indexation locators must name.'),
        tag_id: integerArg('Index tag: the passage between [index-*-tag_id] and its closing tag.', {
          min: FRAGMENT_BOUNDS.id.min,
        }),
        tc_in: secondsArg('Start of the window'),
        tc_out: secondsArg('End of the window'),
        lang: langArg,
      }),
      output: indexationOutput,
      operation: indexationFragmentOperation,
      call: (args) => ({
        query: (p) =>
          p
            .set('section_id', args.section_id)
            .set('section_tipo', args.section_tipo)
            .set('component_tipo', args.component_tipo)
            .set('tag_id', args.tag_id)
            .set('tc_in', args.tc_in)
            .set('tc_out', args.tc_out)
            .set('lang', args.lang),
      }),
      answer: ({ body }, _args, db) => {
        const { tc_in, tc_out } = body.data.locator;
        return {
          structured: { db, data: body.data, meta: body.meta },
          summary: `Passage of record ${body.meta.section_id} (${body.meta.passage}, ${tc_in}-${tc_out} s) with ${body.data.terms.length} indexing term(s).`,
        };
      },
    }),
  ];
}
