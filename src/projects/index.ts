// Area: accounting projects (controller AccountancyProjectEdit, v1.2): the 15 write endpoints of the interface and
// the read-back endpoints of decisions.md section 4. Handlers parse, call a command or query, and present.
import type {
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  onRequestAsyncHookHandler,
} from 'fastify';
import { validatorCompiler } from '../http/validation.ts';
import type { App } from '../app-types.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { errorResponses } from '../http/schemas.ts';
import { notFound } from '../http/errors.ts';
import {
  AssignmentParams,
  IdListBody,
  ListQuery,
  ProjectChangeBody,
  ProjectCreateBody,
  ProjectIdParams,
  ProjectRefResponse,
  ProjectResponse,
  ReadOneQuery,
  WriteQuery,
} from './schemas.ts';
import { changeProject, createProject, deleteProject, type WriteContext } from './commands.ts';
import { ASSIGNMENT_COMMANDS } from './assignment-commands.ts';
import { assignmentsOf, findProject, listProjects } from './queries.ts';
import { presentProject, presentProjectRef } from './presenters.ts';

const BASE = '/v1.2/AccountancyProjectEdit/Project';
const TAGS = ['AccountancyProjectEdit'];
const writeAuth = { auth: { permissions: [PERMISSIONS.projectEdit], apiKey: 'required' as const }, keepNulls: true };
const readAuth = { auth: { permissions: [PERMISSIONS.projectEdit], apiKey: 'optional' as const } };

/**
 * Write bodies are checked once, by the commands (so shape and rule errors end up in one 400): the routes' body
 * schema only documents them (BODY_CHECKED_BY_COMMAND). A failed check of the path or query is answered at once.
 */
function context(request: FastifyRequest, app: App): WriteContext {
  const invalid = request.validationError;
  if (invalid && invalid.validationContext !== 'body') throw invalid;
  return { scope: request.scope, userId: request.principal?.userId ?? null, now: app.now() };
}

/** The write routes' validators: path and query as every route; the body is not validated here (the command does). */
const BODY_CHECKED_BY_COMMAND: FastifySchemaCompiler<FastifySchema> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

/** A bodiless POST/DELETE that still says `Content-Type: application/json` (common in generated clients) is no body. */
const emptyBodyIsNoBody: onRequestAsyncHookHandler = async (request) => {
  const { headers } = request.raw;
  const empty =
    headers['transfer-encoding'] === undefined &&
    (headers['content-length'] === undefined || headers['content-length'] === '0');
  if (empty) delete headers['content-type'];
};

export default async function projectsArea(app: App): Promise<void> {
  app.get(
    BASE,
    {
      config: readAuth,
      schema: {
        tags: TAGS,
        summary: 'List projects',
        description: "A page of the projects of the caller's ledgers, ordered by Id, each with its assigned ids.",
        querystring: ListQuery,
        response: { 200: { type: 'array', items: ProjectResponse }, ...errorResponses },
      },
    },
    async (request) => {
      const rows = await listProjects(app.db, request.scope, {
        limit: request.query.limit ?? 20,
        offset: request.query.offset ?? 0,
      });
      const assignments = await assignmentsOf(
        app.db,
        rows.map((r) => r.id),
      );
      return rows.map((row) => presentProject(row, assignments.get(row.id)!));
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      config: readAuth,
      schema: {
        tags: TAGS,
        summary: 'Read a project',
        description: 'The project with every property of the create body and its assigned ids.',
        params: ProjectIdParams,
        querystring: ReadOneQuery,
        response: { 200: ProjectResponse, ...errorResponses },
      },
    },
    async (request) => {
      const row = await findProject(app.db, request.params.id, request.scope);
      if (!row) throw notFound('id', `Project ${request.params.id} does not exist.`);
      const assignments = await assignmentsOf(app.db, [row.id]);
      return presentProject(row, assignments.get(row.id)!);
    },
  );

  app.post(
    BASE,
    {
      config: writeAuth,
      attachValidation: true,
      validatorCompiler: BODY_CHECKED_BY_COMMAND,
      schema: {
        tags: TAGS,
        summary: 'Create a project',
        description:
          'Creates a project and assigns the ids of its arrays (economic units first, then buildings and land, then use units, ' +
          'then budgets and loans), atomically. 201 with a Location header pointing at the new project.',
        querystring: WriteQuery,
        body: ProjectCreateBody,
        response: { 201: ProjectRefResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await createProject(app.writes, { ...context(request, app), body: request.body });
      return reply.code(201).header('location', `${request.routeOptions.url}/${row.id}`).send(presentProjectRef(row));
    },
  );

  app.put(
    `${BASE}/:id`,
    {
      config: writeAuth,
      attachValidation: true,
      validatorCompiler: BODY_CHECKED_BY_COMMAND,
      schema: {
        tags: TAGS,
        summary: 'Change a project',
        description:
          'Changes only the properties present; null clears a nullable property. The six arrays are not accepted (use the Assign/Remove endpoints).',
        params: ProjectIdParams,
        querystring: WriteQuery,
        body: ProjectChangeBody,
        response: { 200: ProjectRefResponse, ...errorResponses },
      },
    },
    async (request) => {
      const row = await changeProject(app.writes, {
        ...context(request, app),
        id: request.params.id,
        body: request.body,
      });
      return presentProjectRef(row);
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: writeAuth,
      attachValidation: true,
      validatorCompiler: BODY_CHECKED_BY_COMMAND,
      onRequest: emptyBodyIsNoBody,
      schema: {
        tags: TAGS,
        summary: 'Delete a project',
        description: 'Deletes the project and its assignments (never the assigned entities).',
        params: ProjectIdParams,
        querystring: WriteQuery,
        response: { 200: ProjectRefResponse, ...errorResponses },
      },
    },
    async (request) => {
      const row = await deleteProject(app.writes, { ...context(request, app), id: request.params.id });
      return presentProjectRef(row);
    },
  );

  for (const { operation, name, mode, run } of ASSIGNMENT_COMMANDS) {
    const status = mode === 'assign' ? 201 : 200;
    app.post(
      `${BASE}/:projectId/${operation}`,
      {
        config: { ...writeAuth, bodyName: name },
        attachValidation: true,
        validatorCompiler: BODY_CHECKED_BY_COMMAND,
        onRequest: emptyBodyIsNoBody,
        schema: {
          tags: TAGS,
          summary: `${mode === 'assign' ? 'Assign' : 'Remove'} ${name} ids ${mode === 'assign' ? 'to' : 'from'} a project`,
          description:
            mode === 'assign'
              ? `Assigns the ids (${status}). Each must exist in the project's ledger and have its prerequisites assigned; ids already assigned are kept as they are.`
              : `Removes the ids (${status}). Each must be assigned, and nothing assigned may still depend on it.`,
          params: AssignmentParams,
          querystring: WriteQuery,
          body: IdListBody,
          response: { [status]: ProjectRefResponse, ...errorResponses },
        },
      },
      async (request, reply) => {
        const row = await run(app.writes, {
          ...context(request, app),
          projectId: request.params.projectId,
          ids: request.body,
        });
        return (reply as FastifyReply).code(status).send(presentProjectRef(row));
      },
    );
  }
}
