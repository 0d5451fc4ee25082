// Tables of accounting projects and their assignments.
import type { Generated } from 'kysely';
import type { DateText, DateTimeText } from '../db/values.ts';

export interface ProjectsTable {
  id: Generated<number>;
  name: string | null;
  code: string | null;
  project_manager: string | null;
  description: string | null;
  company_code_id: number;
  application_for_development_schedule_date: DateText | null;
  application_for_development_delivery_date: DateText | null;
  application_for_development_grant_date: DateText | null;
  application_for_development_valid_to: DateText | null;
  application_for_development_file_reference: string | null;
  application_for_building_license_schedule_date: DateText | null;
  application_for_building_license_delivery_date: DateText | null;
  application_for_building_license_grant_date: DateText | null;
  application_for_building_license_valid_to: DateText | null;
  application_for_building_license_file_reference: string | null;
  application_for_building_license_reference: string | null;
  project_life_time_from: DateText;
  project_life_time_to: DateText | null;
  cost_center_id: number | null;
  cost_unit_id: number | null;
  cost_type_id: number | null;
  created_at: DateTimeText;
  updated_at: DateTimeText;
}
export interface ProjectEconomicUnitsTable {
  project_id: number;
  economic_unit_id: number;
}
export interface ProjectBuildingsTable {
  project_id: number;
  building_id: number;
}
export interface ProjectLandsTable {
  project_id: number;
  land_id: number;
}
export interface ProjectUseUnitsTable {
  project_id: number;
  use_unit_id: number;
}
export interface ProjectBudgetsTable {
  project_id: number;
  budget_id: number;
}
export interface ProjectLoansTable {
  project_id: number;
  loan_id: number;
}

export interface ProjectTables {
  projects: ProjectsTable;
  project_economic_units: ProjectEconomicUnitsTable;
  project_buildings: ProjectBuildingsTable;
  project_lands: ProjectLandsTable;
  project_use_units: ProjectUseUnitsTable;
  project_budgets: ProjectBudgetsTable;
  project_loans: ProjectLoansTable;
}
