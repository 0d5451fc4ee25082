// Wire schemas of the WebHook controller (v1.2): create and change bodies, the webhook as answered, the test
// answer, the delivery log.
import { Type, type Static } from '@sinclair/typebox';
import { ApiKeyParam, Id, Int32, OneOf as oneOf, PagingQuery, WireObject } from '../http/schemas.ts';
import { ACTIONS, AUTH_TYPES, ENTITY_NAMES, SYSTEM_PURPOSES } from './model.ts';
import { MAX_URL_LENGTH } from './ssrf.ts';

const text = (description: string, maxLength = 500) => Type.String({ minLength: 1, maxLength, description });

export const Authentication = Type.Object(
  {
    Type: oneOf(
      AUTH_TYPES,
      'Callback authentication: None, Bearer (Token), Basic (User, Password), Custom (HeaderName, HeaderValue)',
    ),
    Token: Type.Optional(text('Bearer token (write-only; visible characters, spaces and tabs: no CR, LF)', 4000)),
    User: Type.Optional(Type.String({ maxLength: 500, description: 'Basic user (write-only)' })),
    Password: Type.Optional(Type.String({ maxLength: 500, description: 'Basic password (write-only)' })),
    HeaderName: Type.Optional(
      Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$", description: 'Custom header name (write-only)' }),
    ),
    HeaderValue: Type.Optional(
      text('Custom header value (write-only; visible characters, spaces and tabs: no CR, LF)', 4000),
    ),
  },
  { additionalProperties: false, description: 'Credentials the receiver expects; never returned' },
);

const properties = {
  Name: text('Name of the webhook', 200),
  Url: Type.String({
    maxLength: MAX_URL_LENGTH,
    description: 'Absolute http(s) URL the events are POSTed to; no user:password',
  }),
  SystemPurpose: oneOf(SYSTEM_PURPOSES, 'Echt (production) or Test; default Echt'),
  EntityName: oneOf(ENTITY_NAMES, 'Source entity whose events are sent, or All (default)'),
  Actions: Type.Array(oneOf(ACTIONS, 'created, updated or deleted'), {
    minItems: 1,
    uniqueItems: true,
    description: 'Actions sent (default all three)',
  }),
  Active: Type.Boolean({ description: 'Inactive webhooks receive nothing (default true)' }),
  Authentication,
};

export const WebhookCreateBody = Type.Object(
  {
    Name: Type.Optional(properties.Name),
    Url: properties.Url,
    SystemPurpose: Type.Optional(properties.SystemPurpose),
    EntityName: Type.Optional(properties.EntityName),
    Actions: Type.Optional(properties.Actions),
    Active: Type.Optional(properties.Active),
    Authentication: Type.Optional(properties.Authentication),
  },
  { additionalProperties: false, title: 'WebhookCreate' },
);
export type WebhookCreate = Static<typeof WebhookCreateBody>;

export const WebhookChangeBody = Type.Object(
  {
    Id: Id({ description: 'The webhook to change' }),
    Name: Type.Optional(properties.Name),
    Url: Type.Optional(properties.Url),
    SystemPurpose: Type.Optional(properties.SystemPurpose),
    EntityName: Type.Optional(properties.EntityName),
    Actions: Type.Optional(properties.Actions),
    Active: Type.Optional(properties.Active),
    Authentication: Type.Optional(properties.Authentication),
    RotateSecret: Type.Optional(Type.Boolean({ description: 'true: a new signing secret, answered once' })),
  },
  { additionalProperties: false, title: 'WebhookChange', description: 'Changes only the properties present.' },
);
export type WebhookChange = Static<typeof WebhookChangeBody>;

export const WebhookTestBody = Type.Object(
  { Id: Id({ description: 'The webhook to test' }) },
  { additionalProperties: false, title: 'WebhookTest' },
);

export const WebhookResponse = WireObject(
  {
    Id: Type.Integer(),
    Name: Type.String(),
    Url: Type.String(),
    SystemPurpose: Type.String(),
    EntityName: Type.String(),
    Actions: Type.Array(Type.String()),
    Active: Type.Boolean(),
    AuthenticationType: Type.String(),
    AuthenticationSet: Type.Boolean({ description: 'Whether credentials are stored (they are never returned)' }),
    SigningSecret: Type.String({ description: 'Only on create and on change with RotateSecret: whsec_...' }),
    CreatedAt: Type.String(),
    UpdatedAt: Type.String(),
  },
  { title: 'WebHook' },
);

export const TestResponse = WireObject(
  {
    Success: Type.Boolean(),
    EventId: Type.String(),
    StatusCode: Type.Integer(),
    Error: Type.String(),
    DurationMs: Type.Integer(),
  },
  { title: 'WebhookTestResult' },
);

export const DeliveryResponse = WireObject(
  {
    Id: Type.Integer({ description: 'Attempt id' }),
    DeliveryId: Type.Integer(),
    EventId: Type.String(),
    EntityName: Type.String(),
    EntityId: Type.Integer(),
    Action: Type.String(),
    Attempt: Type.Integer(),
    Time: Type.String(),
    StatusCode: Type.Integer(),
    Error: Type.String(),
    DurationMs: Type.Integer(),
    DeliveryStatus: Type.String({ description: 'pending, delivered or failed' }),
  },
  { title: 'WebhookDelivery' },
);

export const KeyQuery = Type.Object({ apiKey: ApiKeyParam, showNullValues: Type.Optional(PagingQuery.showNullValues) });
export const ListQuery = Type.Object({ ...PagingQuery, apiKey: ApiKeyParam });
// any int32: 0 and negatives name no webhook (404, decisions §3); what is not an integer is a 400
export const WebhookIdParams = Type.Object({ id: Int32({ description: 'Webhook id' }) });
