export { createProgram, main } from './program.js';
