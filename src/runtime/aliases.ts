// What makes a server alias valid, for the front ends' own forms (the sidebar's connect form checks
// the alias as it is typed); the rule itself lives with the config schema.
export { aliasProblem } from '../services/config/checks';
