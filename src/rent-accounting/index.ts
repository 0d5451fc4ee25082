// Area: rent accounting (controller RentAccounting, v1.0 and v1.2).
import type { App } from '../app-types.ts';

export default async function rentAccountingArea(_app: App): Promise<void> {}
