/** Entry of the cataloguing client: defines the elements; index.html holds <dd-app>. */
import './app/dd-app.js';
