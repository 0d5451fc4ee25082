// Area: accounting projects (controller AccountancyProjectEdit, v1.2).
import type { App } from '../app-types.ts';

export default async function projectsArea(_app: App): Promise<void> {}
