import packageJson from '../../package.json';

const optional: Record<string, { optional?: boolean }> = packageJson.peerDependenciesMeta;

/**
 * What a user installs beside Cadre, as the README says: its required peers (`ai`, `zod` and the
 * Temporal SDK's packages), read from package.json.
 */
export const requiredPeers: string[] = Object.keys(packageJson.peerDependencies).filter(
  (name) => !optional[name]?.optional,
);
