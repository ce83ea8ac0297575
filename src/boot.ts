// The command's entry. Before the app's code is loaded (most of the start-up's time), the screen
// this start will show first is painted from the last start's (src/boot/remembered-screen.ts);
// then the app itself (cli.tsx) is loaded and run.
import './cli/young-generation';
import './cli/optimize-later';
import { paintRememberedScreen } from './boot/remembered-screen';

paintRememberedScreen();
await import('./cli');
