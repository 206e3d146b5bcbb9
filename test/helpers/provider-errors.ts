/** Provider errors come from the kit (`cadre/testing`); this name stays for the suite's older tests. */
export { providerError as httpError } from '../../src/testing/provider-error';
