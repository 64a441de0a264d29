import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { NUMERIC_STRING_SECTION_ID, parseSectionId } from '../../src/work/actions/section-id.js';
import { DeprecationCounter } from '../../src/work/dispatch/deprecations.js';
import { WorkError } from '../../src/work/dispatch/error-registry.js';

function harness() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }),
  } as unknown as FastifyBaseLogger;
  const deprecations = new DeprecationCounter();
  return {
    lines,
    deprecations,
    parse: (value: unknown) => parseSectionId(value, 'source.section_id', { deprecations, log }),
  };
}

describe('section_id rules', () => {
  it('keeps integers, negative ones included, without counting them', () => {
    const { parse, lines } = harness();
    expect(parse(7)).toBe(7);
    expect(parse(-1)).toBe(-1);
    expect(parse(0)).toBe(0);
    expect(lines).toEqual([]);
  });

  it('coerces a numeric string and counts it in the log line', () => {
    const { parse, lines, deprecations } = harness();
    expect(parse('42')).toBe(42);
    expect(parse('-1')).toBe(-1);
    expect(deprecations.count(NUMERIC_STRING_SECTION_ID)).toBe(2);
    expect(lines.map((l) => l.fields)).toEqual([
      { deprecation: NUMERIC_STRING_SECTION_ID, deprecation_count: 1 },
      { deprecation: NUMERIC_STRING_SECTION_ID, deprecation_count: 2 },
    ]);
    expect(lines[0]!.message).toContain('source.section_id');
  });

  it('keeps leading-zero and opaque values verbatim', () => {
    const { parse, lines } = harness();
    for (const value of ['007', '00', '-01', 'ext-42', 'tmp_3', '1e3', ' 5'])
      expect(parse(value)).toBe(value);
    expect(lines).toEqual([]);
  });

  it('refuses fractions, booleans, objects and empty strings with a 400', () => {
    const { parse } = harness();
    for (const value of [1.5, Number.NaN, true, {}, [], '', null]) {
      expect(() => parse(value)).toThrow(WorkError);
      try {
        parse(value);
      } catch (err) {
        expect((err as WorkError).status).toBe(400);
      }
    }
  });
});
