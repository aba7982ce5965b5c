import { z } from 'zod';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import { validationError, type FieldErrors } from '../../core/errors.js';
import { migrateLatest } from '../db/migrate.js';
import { createOperatorKey, grantOperatorCredits, listOperatorKeys, revokeOperatorKey } from '../accounts/operator-accounts.js';
import { createUserWithLoginLink } from '../auth/operator-users.js';

/** What an operator command runs with: the database of the process that holds it, and that process's settings. */
export interface OperatorContext {
  db: Db;
  /** the running service's configuration when the command goes through it (its public URL: the links it prints) */
  config: Config;
}

interface OperatorCommand<I extends z.ZodType, O> {
  /** the command's arguments; checked again in the service, where they arrive as JSON */
  input: I;
  /** the one service function of its feature the command runs */
  run(ctx: OperatorContext, input: z.infer<I>): Promise<O>;
}

const command = <I extends z.ZodType, O>(c: OperatorCommand<I, O>): OperatorCommand<I, O> => c;

const id = z.number().int().min(1);
const account = { company: id.optional(), key: z.string().max(256).optional() };

/**
 * Every command of `shotfarm` that changes or reads the database. Each runs ONE service function of its
 * feature, the same code whether the command line opened the database itself (Postgres, or no service
 * running on the embedded one) or a running service runs it behind its operator endpoint
 * (operator-endpoint.ts): the embedded database is held by one process at a time.
 */
export const OPERATOR_COMMANDS = {
  migrate: command({ input: z.object({}), run: async ({ db }) => ({ applied: await migrateLatest(db) }) }),
  'keys.create': command({
    input: z.object({ credits: z.number().int().min(0), company: id.optional(), name: z.string().max(200) }),
    run: ({ db }, input) => createOperatorKey(db, input),
  }),
  'keys.list': command({ input: z.object(account), run: ({ db }, input) => listOperatorKeys(db, input) }),
  'keys.revoke': command({ input: z.object({ id }), run: ({ db }, input) => revokeOperatorKey(db, input.id) }),
  'users.create': command({
    input: z.object({ email: z.string().max(1000), admin: z.boolean(), company: id.optional(), name: z.string().max(200).optional() }),
    run: ({ db, config }, input) => createUserWithLoginLink(db, config, input),
  }),
  'credits.add': command({
    input: z.object({ ...account, amount: z.number().int().min(1), reason: z.string().max(1000) }),
    run: ({ db }, input) => grantOperatorCredits(db, input),
  }),
};

export type OperatorCommandName = keyof typeof OPERATOR_COMMANDS;
export type OperatorInput<N extends OperatorCommandName> = z.infer<(typeof OPERATOR_COMMANDS)[N]['input']>;
export type OperatorOutput<N extends OperatorCommandName> = Awaited<ReturnType<(typeof OPERATOR_COMMANDS)[N]['run']>>;

export const isOperatorCommand = (name: string): name is OperatorCommandName => Object.hasOwn(OPERATOR_COMMANDS, name);

/**
 * Runs the command `name` on `input` as it arrived (JSON from the command line or the endpoint): a 400
 * naming each field that does not have its declared type, else the command's service function.
 */
export async function runOperatorCommand<N extends OperatorCommandName>(name: N, ctx: OperatorContext, input: unknown): Promise<OperatorOutput<N>> {
  // Each entry's input and run agree (command() checks it); indexed by a union, TypeScript sees only their widest types.
  const command = OPERATOR_COMMANDS[name] as unknown as OperatorCommand<z.ZodType, OperatorOutput<N>>;
  const parsed = command.input.safeParse(input);
  if (!parsed.success) {
    const fields: FieldErrors = {};
    for (const issue of parsed.error.issues) (fields[issue.path.join('.') || 'input'] ??= []).push(issue.message);
    throw validationError(fields);
  }
  return command.run(ctx, parsed.data);
}
