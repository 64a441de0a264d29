/**
 * What an MCP tool is here: a name, a description written for an agent, zod input and output
 * schemas, and the read operation it stands for. A tool maps its arguments onto the operation's
 * path and query parameters (so the operation's own validators judge them, with the REST
 * wording), runs it, and reshapes the envelope into its structured answer plus a one-line
 * summary. Tools know nothing of HTTP or of the SDK; the server factory (mcp-server.ts) turns
 * their answers and failures into tool results.
 */
import type * as z from 'zod';
import type { Envelope, Operation, OperationAnswer } from '../operations/operation.js';
import { notFound } from '../problems.js';
import type { PublicationContext } from '../services/context.js';
import { ParamsBuilder } from './tool-args.js';

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

interface ToolText<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
}

/** A tool's call, described for its operation: what the REST path and query string would say. */
export interface OperationCall {
  /** Path parameters other than `db`, which the tool fills in (named or the default). */
  params?: Record<string, string>;
  /** The query parameters, added to a builder that reports unmappable arguments by name. */
  query?(params: ParamsBuilder): ParamsBuilder;
}

export interface OperationToolSpec<
  I extends z.ZodObject,
  O extends z.ZodObject,
  B extends Envelope | undefined,
> extends ToolText<I, O> {
  operation: Operation<B>;
  call(args: z.output<I>): OperationCall;
  answer(
    answer: OperationAnswer<B>,
    args: z.output<I>,
    db: string,
  ): { structured: z.input<O>; summary: string };
}

/** The database a tool works on: the one named, or the first configured one. */
export function databaseOf(ctx: PublicationContext, db: string | undefined): string {
  const chosen = db ?? ctx.config.dbNames[0];
  if (chosen === undefined) throw notFound('no database is published on this server');
  return chosen;
}

/** Runs `operation` as `call` describes, on the named or default database. */
export function runOperation<B extends Envelope | undefined>(
  ctx: PublicationContext,
  operation: Operation<B>,
  db: string,
  call: OperationCall,
): Promise<OperationAnswer<B>> {
  return operation.run(ctx, {
    params: { db, ...call.params },
    // Built when the operation reads it (after the table and id checks), as REST parses its
    // query string then: a call with several faults is refused for the one REST names first.
    query: () => (call.query ? call.query(new ParamsBuilder()) : new ParamsBuilder()).build(),
  });
}

/** A tool that is one operation: the common case, declared as a row of the tool table. */
export function operationTool<I extends z.ZodObject, O extends z.ZodObject, B extends Envelope | undefined>(
  spec: OperationToolSpec<I, O, B>,
): McpTool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    run: async (ctx, args) => {
      const db = databaseOf(ctx, (args as { db?: string }).db);
      return spec.answer(await runOperation(ctx, spec.operation, db, spec.call(args)), args, db);
    },
  });
}

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> extends ToolText<I, O> {
  run(ctx: PublicationContext, args: z.output<I>): Promise<{ structured: z.input<O>; summary: string }>;
}

/**
 * A tool whose answer combines operations (get_schema). Keeps each tool's argument and answer
 * types checked while the catalogue holds them uniformly.
 */
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
