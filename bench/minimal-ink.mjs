// The baseline Ink app: renders one line and waits for `q`, as small as an interactive Ink 6 app
// gets. Plain JavaScript straight from node_modules (no bundle), run with NODE_ENV=production.
import { createElement } from 'react';
import { render, Text, useApp, useInput } from 'ink';

function Hello() {
  const { exit } = useApp();
  useInput((input) => {
    if (input === 'q') exit();
  });
  return createElement(Text, null, 'minimal Ink app ready');
}

render(createElement(Hello));
