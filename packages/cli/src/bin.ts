#!/usr/bin/env node
import { main } from './program.js';

await main();
