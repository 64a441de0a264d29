/**
 * Fragment tools: the passages of one record where words occur (text, or transcription with its
 * video window and speakers), and the passage a thesaurus indexation points at. Same parse
 * functions and services as the fragments routes, called in the same order.
 */
import * as z from 'zod';
import {
  DEFAULT_TEXT_COLUMN,
  FRAGMENT_BOUNDS,
  parseAvFragmentsRequest,
  parseFragmentsRequest,
  parseIndexationRequest,
} from '../query/fragment-requests.js';
import { parseRecordId } from '../query/path-params.js';
import { avFragments, requireTranscriptionColumn } from '../services/av-service.js';
import { requireTable } from '../services/catalog-service.js';
import { textFragments } from '../services/fragments-service.js';
import { indexationFragment } from '../services/indexation-service.js';
import { avFragmentsOutput, indexationOutput, textFragmentsOutput } from './output-schemas.js';
import { type DbArg, idArg, integerArg, langArg, ParamsBuilder, tableArg, toolInput } from './tool-args.js';
import { databaseOf, defineTool, type McpTool } from './tool-definition.js';

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
    defineTool({
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
      run: async (ctx, args) => {
        const db = databaseOf(ctx, args.db);
        const info = await requireTable(ctx, db, args.table);
        const id = parseRecordId(String(args.id));
        const params = new ParamsBuilder()
          .set('terms', args.terms)
          .set('column', args.column)
          .set('lang', args.lang)
          .set('max_characters', args.max_characters)
          .set('max_occurrences', args.max_occurrences)
          .build();
        const req = parseFragmentsRequest(params, info);
        const data = await textFragments(ctx, db, info.name, id, req);
        return {
          structured: { db, table: info.name, data, meta: { section_id: id, terms: req.terms } },
          summary: `${data.length} fragment(s) of ${info.name} ${id} (${req.column}) for "${req.terms}".`,
        };
      },
    }),
    defineTool({
      name: 'get_av_fragment',
      title: 'Video passages of an interview where words occur',
      description:
        'Like get_text_fragment over the transcription of an audiovisual record, but each excerpt also carries its media window (video URL with vbegin/vend, poster image, tc_in/tc_out in seconds) and the speakers. Use it to point a person at the moment of the video where something is said.',
      input: toolInput({
        db: dbArg,
        table: tableArg,
        id: idArg,
        terms: termsArg,
        lang: langArg,
        max_characters: maxCharactersArg,
        max_occurrences: maxOccurrencesArg,
      }),
      output: avFragmentsOutput,
      run: async (ctx, args) => {
        const db = databaseOf(ctx, args.db);
        const info = await requireTable(ctx, db, args.table);
        const id = parseRecordId(String(args.id));
        const params = new ParamsBuilder()
          .set('terms', args.terms)
          .set('lang', args.lang)
          .set('max_characters', args.max_characters)
          .set('max_occurrences', args.max_occurrences)
          .build();
        const req = parseAvFragmentsRequest(params, info, requireTranscriptionColumn(ctx, info));
        const data = await avFragments(ctx, db, info.name, id, req);
        return {
          structured: { db, table: info.name, data, meta: { section_id: id, terms: req.terms } },
          summary: `${data.length} audiovisual fragment(s) of ${info.name} ${id} for "${req.terms}".`,
        };
      },
    }),
    defineTool({
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
      run: async (ctx, args) => {
        const db = databaseOf(ctx, args.db);
        const params = new ParamsBuilder()
          .set('section_id', args.section_id)
          .set('section_tipo', args.section_tipo)
          .set('component_tipo', args.component_tipo)
          .set('tag_id', args.tag_id)
          .set('tc_in', args.tc_in)
          .set('tc_out', args.tc_out)
          .set('lang', args.lang)
          .build();
        const req = parseIndexationRequest(params);
        const answer = await indexationFragment(ctx, db, req);
        const meta = {
          section_id: req.sectionId,
          passage: answer.passage,
          ...(answer.lang !== undefined ? { lang: answer.lang } : {}),
          ...(answer.termsTruncated ? { terms_truncated: true } : {}),
        };
        const { tc_in, tc_out } = answer.data.locator;
        return {
          structured: { db, data: answer.data, meta },
          summary: `Passage of record ${req.sectionId} (${answer.passage}, ${tc_in}-${tc_out} s) with ${answer.data.terms.length} indexing term(s).`,
        };
      },
    }),
  ];
}
