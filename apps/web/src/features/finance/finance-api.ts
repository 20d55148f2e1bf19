import type { PointsFlowGroupBy, PointsFlowReport } from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export interface FlowParams {
  from: string;
  to: string;
  groupBy: PointsFlowGroupBy;
}

export const POINTS_FLOW_PATH = '/api/v1/reports/points-flow';

/** The points-flow report of a range; the previous answer stays on screen (faded) while the next loads. */
export function pointsFlowQuery(params: FlowParams) {
  return queryOptions({
    queryKey: ['reports', 'points-flow', params] as const,
    queryFn: ({ signal }) =>
      apiClient.get<PointsFlowReport>(POINTS_FLOW_PATH, { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Failed to load the points flow' },
  });
}
