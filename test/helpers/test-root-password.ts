/** The root password of every test work database (the bootstrapped templates are made with it). */
export const TEST_ROOT_PASSWORD = 'test root password';
