import { DefaultLogger, Runtime } from '@temporalio/worker';

// Worker lifecycle lines drown test output; warnings and errors still show.
Runtime.install({ logger: new DefaultLogger('WARN') });
