/**
 * The package manager that started this run, from `npm_config_user_agent` (npm, pnpm and yarn set it
 * for what they run): a printed command goes through it. Under Yarn Plug'n'Play that is what lets
 * node find the packages (npx tried to download vitest; measured in a user trial with Yarn 4).
 */
export type PackageManager = "npm" | "pnpm" | "yarn";

export function packageManager(env: NodeJS.ProcessEnv = process.env): PackageManager {
  const agent = env.npm_config_user_agent ?? "";
  return agent.startsWith("yarn/") ? "yarn" : agent.startsWith("pnpm/") ? "pnpm" : "npm";
}
