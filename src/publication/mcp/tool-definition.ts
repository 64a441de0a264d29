/**
 * What an MCP tool is here: a name, a description written for an agent, zod input and output
 * schemas, and a `run` that calls the same validators and services as the REST route and returns
 * the structured answer plus a one-line summary. Tools know nothing of HTTP or of the SDK; the
 * server factory (mcp-server.ts) turns their answers and failures into tool results.
 */
import type * as z from 'zod';
import { notFound } from '../problems.js';
import type { PublicationContext } from '../services/context.js';

export interface ToolAnswer {
  structured: Record<string, unknown>;
  /** One line for the text content, ahead of the JSON (what was found, what to do next). */
  summary: string;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  run(ctx: PublicationContext, args: unknown): Promise<ToolAnswer>;
}

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(ctx: PublicationContext, args: z.output<I>): Promise<{ structured: z.input<O>; summary: string }>;
}

/** Keeps each tool's argument and answer types checked while the catalogue holds them uniformly. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): McpTool {
  return {
    ...spec,
    // The SDK has already parsed the arguments with `spec.input` before calling run.
    run: async (ctx, args) => {
      const answer = await spec.run(ctx, args as z.output<I>);
      return { structured: answer.structured as Record<string, unknown>, summary: answer.summary };
    },
  };
}

/** The database a tool works on: the one named, or the first configured one. */
export function databaseOf(ctx: PublicationContext, db: string | undefined): string {
  const chosen = db ?? ctx.config.dbNames[0];
  if (chosen === undefined) throw notFound('no database is published on this server');
  return chosen;
}
