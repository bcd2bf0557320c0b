import { Navigate, type RouteObject } from 'react-router';
import type { FeatureRoute } from '../lib/feature.ts';
import { appRoutes } from './features.ts';
import { RouteScreen } from './route-screen.tsx';

/** Every feature's routes for useRoutes/matchRoutes; `handle` is the feature's FeatureRoute. */
export const routeTable: RouteObject[] = [
  ...appRoutes.map((route) => ({ path: route.path, handle: route, element: <RouteScreen route={route} /> })),
  // Unknown paths (and the areas of later stages) go home.
  { path: '*', element: <Navigate to="/" replace /> },
];

export function routeHandle(handle: unknown): FeatureRoute | undefined {
  return handle as FeatureRoute | undefined;
}
