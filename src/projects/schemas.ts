// Wire schemas of the AccountancyProjectEdit controller (v1.2): write bodies, id lists, parameters, responses.
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { ApiKeyParam, DateString, Int32, Nullable, PagingQuery, ShowNullValues, WireObject } from '../http/schemas.ts';

const str = (description: string) => Type.String({ description });
const day = (description: string) => DateString({ description: `${description}, YYYY-MM-DD` });
const costRef = (what: string) =>
  Int32({ description: `Id of an existing ${what}; 0 = none (null is refused: the interface types it int)` });

/** Every scalar property of a project (body and read-back), with its plain type. */
const FIELDS = {
  Name: str('Name of the project'),
  Code: str('Code, unique within the ledger'),
  ProjectManager: str('Project manager'),
  Description: str('Description'),
  CompanyCodeId: Int32({ description: 'Ledger (company code) of the project; required on create, not nullable' }),
  ApplicationForDevelopmentScheduleDate: day('Schedule date'),
  ApplicationForDevelopmentDeliveryDate: day('Delivery date'),
  ApplicationForDevelopmentGrantDate: day('Grant date'),
  ApplicationForDevelopmentValidTo: day('Valid to'),
  ApplicationForDevelopmentFileReference: str('File reference'),
  ApplicationForBuildingLicenseScheduleDate: day('Schedule date'),
  ApplicationForBuildingLicenseDeliveryDate: day('Delivery date'),
  ApplicationForBuildingLicenseGrantDate: day('Grant date'),
  ApplicationForBuildingLicenseValidTo: day('Valid to'),
  ApplicationForBuildingLicenseFileReference: str('File reference'),
  ApplicationForBuildingLicenseReference: str('Reference'),
  ProjectLifeTimeFrom: day('Start of the project; required on create, not nullable'),
  ProjectLifeTimeTo: day('End of the project, not before ProjectLifeTimeFrom'),
  CostCenterId: costRef('cost centre'),
  CostUnitId: costRef('cost unit'),
  CostTypeId: costRef('cost type'),
};

/** The six assignment arrays, in the order a create body applies them. */
export const ARRAY_FIELDS = ['EconomicUnit', 'Building', 'Land', 'UseUnit', 'Budget', 'Loan'] as const;

export type ScalarField = keyof typeof FIELDS;
export type ArrayField = (typeof ARRAY_FIELDS)[number];
export const SCALAR_FIELDS = Object.keys(FIELDS) as ScalarField[];
/** Properties that may be absent but never null: the interface types them without `?` (`int`, `date (not nullable)`);
 *  a cost object given as 0 means none. */
export const NOT_NULLABLE: ScalarField[] = [
  'CompanyCodeId',
  'ProjectLifeTimeFrom',
  'CostCenterId',
  'CostUnitId',
  'CostTypeId',
];
/** Properties a create body must have. */
export const REQUIRED_ON_CREATE: ScalarField[] = ['CompanyCodeId', 'ProjectLifeTimeFrom'];

const idArray = (description: string) => Type.Array(Int32(), { description });
const opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const ids = (name: ArrayField) => opt(idArray(`Ids to assign: ${name}`));

/** The create body, literally: its static type is exact. Nullable unless listed in NOT_NULLABLE; required as
 *  REQUIRED_ON_CREATE says (both checked below against this literal). */
export const ProjectCreateBody = Type.Object(
  {
    Name: opt(FIELDS.Name),
    Code: opt(FIELDS.Code),
    ProjectManager: opt(FIELDS.ProjectManager),
    Description: opt(FIELDS.Description),
    CompanyCodeId: FIELDS.CompanyCodeId,
    ApplicationForDevelopmentScheduleDate: opt(FIELDS.ApplicationForDevelopmentScheduleDate),
    ApplicationForDevelopmentDeliveryDate: opt(FIELDS.ApplicationForDevelopmentDeliveryDate),
    ApplicationForDevelopmentGrantDate: opt(FIELDS.ApplicationForDevelopmentGrantDate),
    ApplicationForDevelopmentValidTo: opt(FIELDS.ApplicationForDevelopmentValidTo),
    ApplicationForDevelopmentFileReference: opt(FIELDS.ApplicationForDevelopmentFileReference),
    ApplicationForBuildingLicenseScheduleDate: opt(FIELDS.ApplicationForBuildingLicenseScheduleDate),
    ApplicationForBuildingLicenseDeliveryDate: opt(FIELDS.ApplicationForBuildingLicenseDeliveryDate),
    ApplicationForBuildingLicenseGrantDate: opt(FIELDS.ApplicationForBuildingLicenseGrantDate),
    ApplicationForBuildingLicenseValidTo: opt(FIELDS.ApplicationForBuildingLicenseValidTo),
    ApplicationForBuildingLicenseFileReference: opt(FIELDS.ApplicationForBuildingLicenseFileReference),
    ApplicationForBuildingLicenseReference: opt(FIELDS.ApplicationForBuildingLicenseReference),
    ProjectLifeTimeFrom: FIELDS.ProjectLifeTimeFrom,
    ProjectLifeTimeTo: opt(FIELDS.ProjectLifeTimeTo),
    CostCenterId: Type.Optional(FIELDS.CostCenterId),
    CostUnitId: Type.Optional(FIELDS.CostUnitId),
    CostTypeId: Type.Optional(FIELDS.CostTypeId),
    EconomicUnit: ids('EconomicUnit'),
    Building: ids('Building'),
    Land: ids('Land'),
    UseUnit: ids('UseUnit'),
    Budget: ids('Budget'),
    Loan: ids('Loan'),
  },
  {
    additionalProperties: false,
    description:
      'CompanyCodeId and ProjectLifeTimeFrom are required. The arrays are applied in dependency order, atomically.',
  },
);

/** The change body: the scalar properties of the create body, every one optional; the six arrays not accepted. */
export const ProjectChangeBody = Type.Partial(Type.Omit(ProjectCreateBody, [...ARRAY_FIELDS]), {
  additionalProperties: false,
  description:
    'Only the properties present are changed; null clears a nullable property. The six arrays are not accepted.',
});

/** A create or change body after its schema check (a property with a schema error is never read: see rules.ts). */
export type ProjectBody = Partial<Static<typeof ProjectCreateBody>>;

// The literal above and the field lists must agree (checked once at start-up).
for (const name of SCALAR_FIELDS) {
  const property = ProjectCreateBody.properties[name] as TSchema & { type?: unknown };
  const nullable = Array.isArray(property.type) && property.type.includes('null');
  if (
    nullable === NOT_NULLABLE.includes(name) ||
    (ProjectCreateBody.required as string[] | undefined)?.includes(name) !== REQUIRED_ON_CREATE.includes(name)
  )
    throw new Error(`ProjectCreateBody.${name} disagrees with NOT_NULLABLE / REQUIRED_ON_CREATE`);
}

/** Body of the assign and remove endpoints: an array of ids, optional (absent, null or [] = nothing to do). */
export const IdListBody = Type.Optional(Nullable(Type.Array(Int32(), { description: 'Ids (int32)' })));

/** Per array name, the schema its ids are checked with, so errors are keyed `Building`, `Building[2]`. */
export const ID_LIST_CHECKS = Object.fromEntries(
  ARRAY_FIELDS.map((name) => [name, Type.Object({ [name]: Nullable(idArray('Ids')) })]),
) as Record<ArrayField, object>;

export const ProjectIdParams = Type.Object({ id: Int32({ description: 'Project id' }) });
export const AssignmentParams = Type.Object({ projectId: Int32({ description: 'Project id' }) });

/** interface.md lists only `apiKey` for the writes (their answer is always the full {Id, Code, Name}). */
export const WriteQuery = Type.Object({ apiKey: ApiKeyParam });
export const ReadOneQuery = Type.Object({
  apiKey: Type.Optional(ApiKeyParam),
  showNullValues: Type.Optional(ShowNullValues),
});
export const ListQuery = Type.Object(PagingQuery);

/** What every write endpoint answers. */
export const ProjectRefResponse = WireObject({ Id: Type.Integer(), Code: Type.String(), Name: Type.String() });

const responseProperties: TProperties = { Id: Type.Integer() };
for (const name of SCALAR_FIELDS) responseProperties[name] = FIELDS[name];
for (const name of ARRAY_FIELDS)
  responseProperties[name] = Type.Array(Type.Integer(), { description: 'Assigned ids, ascending' });

/** The read-back: Id, every property of the create body under the same name, the six arrays of assigned ids. */
export const ProjectResponse = WireObject(responseProperties);
