import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // React Router v8's changes, each declined for now (today's v7 behaviour, which the app and its tests
  // are written for). Saying so explicitly is also what stops the build's five "Future Flag Warning"s;
  // turning one on is a decision of its own, with its tests.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
