import { CREATE_PARAMS } from '../../core/request/create-params.js';
import { MONITOR_ID_PARAMS, MONITOR_LIST_PARAMS, MONITOR_OWN_PARAMS, MONITOR_RUNS_PARAMS } from '../../core/request/monitor-params.js';
import type { Operation } from '../routes/openapi.js';

/** The /monitor operations in the OpenAPI document, from the parameter tables that validate them. */
export const MONITOR_OPERATIONS: Operation[] = [
  {
    method: 'post', path: '/monitor/create', summary: 'Watch a page: JSON body {url, interval (seconds, at least 300) or cron, threshold (percent of changed pixels), ignore ([selector | {x, y, width, height}]), ...screenshot options}',
    params: { ...CREATE_PARAMS, ...MONITOR_OWN_PARAMS }, required: ['url'],
  },
  { method: 'get', path: '/monitor/list', summary: 'Monitors, newest first', params: MONITOR_LIST_PARAMS },
  { method: 'get', path: '/monitor/info', summary: 'One monitor', params: MONITOR_ID_PARAMS, required: ['id'] },
  { method: 'post', path: '/monitor/update', summary: 'Change a monitor: JSON body {id, ...fields to change}; the whole is validated again', params: { ...MONITOR_ID_PARAMS, ...CREATE_PARAMS, ...MONITOR_OWN_PARAMS }, required: ['id'] },
  { method: 'post', path: '/monitor/pause', summary: 'Stop a monitor\'s schedule', params: MONITOR_ID_PARAMS, required: ['id'] },
  { method: 'post', path: '/monitor/resume', summary: 'Start a paused monitor\'s schedule again from now (paused periods are not caught up)', params: MONITOR_ID_PARAMS, required: ['id'] },
  { method: 'post', path: '/monitor/delete', summary: 'Delete a monitor and its runs (its screenshots stay)', params: MONITOR_ID_PARAMS, required: ['id'] },
  { method: 'post', path: '/monitor/run', summary: 'One run now, outside the schedule (charged as a screenshot)', params: MONITOR_ID_PARAMS, required: ['id'] },
  { method: 'get', path: '/monitor/runs', summary: 'A monitor\'s runs, newest first: screenshot_id, change_ratio, changed, diff_url, text_changes', params: MONITOR_RUNS_PARAMS, required: ['id'] },
  { method: 'get', path: '/monitor/diff', summary: 'The diff image of a run (id = its screenshot id); with token: the signed diff_url, no key needed', params: MONITOR_ID_PARAMS, required: ['id'] },
];
