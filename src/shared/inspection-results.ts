/**
 * The open results of random inspection plans (双随机、一公开), shared by the browser's page
 * (/inspection-results, src/pages/public/inspection-results) and the server's route
 * (src/server/domain/inspection-plan/routes.ts): its address and the shape it answers. Only the
 * published facts — plan, unit, date, result — never the officers or the findings.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { pageOf, pageQueryProperties } from './wire';

/** The open route, relative to the API base. */
export const INSPECTION_RESULTS_ROUTE = '/open/inspection-results';

/** Query of the open list: paging and a keyword over the unit name and the plan title. */
export const inspectionResultsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...pageQueryProperties, q: { type: 'string', maxLength: 50 } },
} as const;

export const inspectionResultSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['planNo', 'planTitle', 'unitName', 'checkDate', 'result', 'resultLabel', 'publishDate'],
  properties: {
    planNo: { type: ['string', 'null'] },
    planTitle: { type: 'string' },
    unitName: { type: 'string' },
    checkDate: { type: ['string', 'null'] },
    result: { type: ['string', 'null'] },
    resultLabel: { type: ['string', 'null'] },
    publishDate: { type: ['string', 'null'] },
  },
} as const;

export const inspectionResultsPageSchema = pageOf(inspectionResultSchema);

export type InspectionResult = FromSchema<typeof inspectionResultSchema>;
export interface InspectionResultsPage {
  pageNo: number;
  pageSize: number;
  count: number;
  list: InspectionResult[];
}
