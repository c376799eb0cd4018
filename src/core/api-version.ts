/**
 * The versions of the public API (README, "Versioning"; CHANGELOG.md). Versions are named by the date
 * they were published. A request picks one with the `API-Version` header; a request without it gets
 * `DEFAULT_API_VERSION`, which never changes: a change that could break an integration ships only under
 * a new version that a partner asks for. Additive changes (new routes, new optional parameters, new
 * fields in answers and webhook bodies, new event types) come to every version.
 */
export const API_VERSIONS = ['2026-11-26'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** What a request without `API-Version` gets, and what webhook bodies and events carry as `apiVersion`. */
export const DEFAULT_API_VERSION: ApiVersion = '2026-11-26';
