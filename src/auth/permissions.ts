// Endpoint permission names, as the vendor interface names them. The one place they are spelled.
export const PERMISSIONS = {
  runningCostMasterData: 'Umlageabrechnung-Stammdaten',
  runningCostRead: 'Umlageabrechnung-lesen',
  projectEdit: 'Belegsystem Projekt ändern',
  rentAccountingRead: 'Mietenbuchhaltung-lesen',
  webhook: 'Web Hook',
  personsRead: 'Personen lesen',
  objectDataRead: 'Objektdaten lesen',
  loansRead: 'Darlehen lesen',
} as const;

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];
export const ALL_PERMISSIONS: Permission[] = Object.values(PERMISSIONS);

export function isPermission(name: string): name is Permission {
  return (ALL_PERMISSIONS as string[]).includes(name);
}
