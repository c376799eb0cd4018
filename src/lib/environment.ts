export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The owner of every partner resource: one project in one environment. */
export type Tenant = { projectId: string; environment: Environment };
