import { z } from 'zod';
import { DEVICES } from '../options/devices.js';
import { Device } from './screenshot-shapes.js';
import { defineRoute, type ApiRoute } from '../http/route.js';

/** GET /device/list: the device catalogue. */
export const DEVICE_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/device/list',
    operationId: 'listDevices',
    tag: 'Devices',
    credentials: 'account',
    summary: 'Device emulation profiles',
    response: { data: z.array(Device), description: 'The profiles; a device_name is usable in screenshot create' },
    handler: () => DEVICES,
  }),
];
