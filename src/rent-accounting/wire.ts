// Schema pieces of the rent-accounting wire objects, shared by the kinds of both versions.
import { Type } from '@sinclair/typebox';
import { Int32, WireObject } from '../http/schemas.ts';

export { CodeRef as Ref, UseUnitRef } from '../http/schemas.ts';
export { Int32 };

/** number = numeric (decimals stored exactly, shown as JSON numbers). */
export const Num = () => Type.Number();
export const Str = () => Type.String();
export const Bool = () => Type.Boolean();
/** date: 'YYYY-MM-DD'. */
export const DateField = () => Type.String({ format: 'date' });
/** datetime: ISO 8601, UTC. */
export const DateTimeField = () => Type.String({ format: 'date-time' });

/** {Id, Name, ShortCode}: ContractPositionType, CalculationBase. */
export const NamedRef = WireObject({ Id: Int32(), Name: Type.String(), ShortCode: Type.String() });
/** {Id, Code, ShortCode}: DistributionCostType, StandardDistributionKey. */
export const CodedRef = WireObject({ Id: Int32(), Code: Type.String(), ShortCode: Type.String() });
