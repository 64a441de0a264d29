/**
 * The ontology the work API starts with: the system sections (users, profiles, projects,
 * activity, yes/no list), the areas and the oral-history sections with their components, plus
 * the language allowlist. Plain data: siblings appear in their ontology order.
 *
 * The tipos of the Dédalo ontology are used as Dédalo names them (docs/ontology.md). The few it leaves open are ours and marked
 * "(ours)": the root area dd1, the areas oh0, rsc0 and dd207, the groupers oh2/oh3, the
 * yes/no value dd62, the interview date oh29, project filter oh22 and publishable flag oh32, the activity
 * components dd543..dd551, and the computed full name rsc9001 of people.
 */
import type { OntologySeed } from './ontology-schema.js';

export const ONTOLOGY_SEED = {
  languages: [
    { code: 'lg-eng', label: 'English' },
    { code: 'lg-spa', label: 'Español' },
    { code: 'lg-cat', label: 'Català' },
    { code: 'lg-fra', label: 'Français' },
    { code: 'lg-nolan', label: 'No language' },
  ],
  nodes: [
    // Root area (ours) and page elements.
    { tipo: 'dd1', parent: null, model: 'area_root', label: { 'lg-eng': 'Dédalo', 'lg-spa': 'Dédalo' } },
    { tipo: 'dd85', parent: 'dd1', model: 'menu', label: { 'lg-eng': 'Menu', 'lg-spa': 'Menú' } },
    { tipo: 'dd229', parent: 'dd1', model: 'login', label: { 'lg-eng': 'Login', 'lg-spa': 'Acceso' } },

    // Oral history (area oh0 is ours).
    {
      tipo: 'oh0',
      parent: 'dd1',
      model: 'area',
      label: { 'lg-eng': 'Oral history', 'lg-spa': 'Historia oral' },
    },
    {
      tipo: 'oh1',
      parent: 'oh0',
      model: 'section',
      label: { 'lg-eng': 'Interviews', 'lg-spa': 'Entrevistas' },
    },
    {
      tipo: 'oh2',
      parent: 'oh1',
      model: 'section_group',
      label: { 'lg-eng': 'Interview', 'lg-spa': 'Entrevista' },
    },
    {
      tipo: 'oh14',
      parent: 'oh2',
      model: 'component_input_text',
      label: { 'lg-eng': 'Code', 'lg-spa': 'Código' },
    },
    {
      tipo: 'oh16',
      parent: 'oh2',
      model: 'component_input_text',
      translatable: true,
      label: { 'lg-eng': 'Title', 'lg-spa': 'Título' },
    },
    {
      tipo: 'oh23',
      parent: 'oh2',
      model: 'component_text_area',
      translatable: true,
      label: { 'lg-eng': 'Abstract', 'lg-spa': 'Resumen' },
    },
    {
      tipo: 'oh24',
      parent: 'oh2',
      model: 'component_portal',
      target_section_tipo: ['rsc197'],
      label: { 'lg-eng': 'Informants', 'lg-spa': 'Informantes' },
    },
    {
      tipo: 'oh25',
      parent: 'oh2',
      model: 'component_portal',
      target_section_tipo: ['rsc167'],
      label: { 'lg-eng': 'Audiovisual', 'lg-spa': 'Audiovisual' },
    },
    {
      tipo: 'oh17',
      parent: 'oh2',
      model: 'component_portal',
      target_section_tipo: ['rsc170'],
      label: { 'lg-eng': 'Image', 'lg-spa': 'Imagen' },
    },
    {
      tipo: 'oh3',
      parent: 'oh1',
      model: 'section_group',
      label: { 'lg-eng': 'Management', 'lg-spa': 'Gestión' },
    },
    {
      tipo: 'oh29',
      parent: 'oh3',
      model: 'component_date',
      label: { 'lg-eng': 'Interview date', 'lg-spa': 'Fecha de la entrevista' },
    },
    {
      tipo: 'oh22',
      parent: 'oh3',
      model: 'component_filter',
      target_section_tipo: ['dd153'],
      label: { 'lg-eng': 'Projects', 'lg-spa': 'Proyectos' },
    },
    {
      // Publishable (ours): only interviews marked yes are published (src/publish/).
      tipo: 'oh32',
      parent: 'oh3',
      model: 'component_radio_button',
      target_section_tipo: ['dd64'],
      label: { 'lg-eng': 'Publishable', 'lg-spa': 'Publicable' },
    },

    // Resources (area rsc0 is ours).
    {
      tipo: 'rsc0',
      parent: 'dd1',
      model: 'area_resource',
      label: { 'lg-eng': 'Resources', 'lg-spa': 'Recursos' },
    },
    { tipo: 'rsc197', parent: 'rsc0', model: 'section', label: { 'lg-eng': 'People', 'lg-spa': 'Personas' } },
    {
      tipo: 'rsc85',
      parent: 'rsc197',
      model: 'component_input_text',
      label: { 'lg-eng': 'Name', 'lg-spa': 'Nombre' },
    },
    {
      tipo: 'rsc86',
      parent: 'rsc197',
      model: 'component_input_text',
      label: { 'lg-eng': 'Surname', 'lg-spa': 'Apellidos' },
    },
    {
      tipo: 'rsc89',
      parent: 'rsc197',
      model: 'component_date',
      label: { 'lg-eng': 'Date of birth', 'lg-spa': 'Fecha de nacimiento' },
    },
    {
      // Computed (ours): recomputed by every save of name or surname, never saved directly.
      tipo: 'rsc9001',
      parent: 'rsc197',
      model: 'component_input_text',
      properties: { computed: { from: ['rsc85', 'rsc86'], join: ' ' } },
      label: { 'lg-eng': 'Full name', 'lg-spa': 'Nombre completo' },
    },
    {
      tipo: 'rsc167',
      parent: 'rsc0',
      model: 'section',
      label: { 'lg-eng': 'Audiovisual', 'lg-spa': 'Audiovisual' },
    },
    {
      tipo: 'rsc35',
      parent: 'rsc167',
      model: 'component_av',
      label: { 'lg-eng': 'File', 'lg-spa': 'Archivo' },
    },
    {
      tipo: 'rsc36',
      parent: 'rsc167',
      model: 'component_text_area',
      translatable: true,
      // The transcription carries the tag grammar (timecodes, index and speaker marks).
      properties: { tags: true },
      label: { 'lg-eng': 'Transcription', 'lg-spa': 'Transcripción' },
    },
    {
      tipo: 'rsc54',
      parent: 'rsc167',
      model: 'component_input_text',
      label: { 'lg-eng': 'Duration', 'lg-spa': 'Duración' },
    },
    { tipo: 'rsc170', parent: 'rsc0', model: 'section', label: { 'lg-eng': 'Images', 'lg-spa': 'Imágenes' } },
    {
      tipo: 'rsc29',
      parent: 'rsc170',
      model: 'component_image',
      label: { 'lg-eng': 'File', 'lg-spa': 'Archivo' },
    },

    // Thesaurus.
    {
      tipo: 'dd100',
      parent: 'dd1',
      model: 'area_thesaurus',
      label: { 'lg-eng': 'Thesaurus', 'lg-spa': 'Tesauro' },
    },
    {
      tipo: 'ts1',
      parent: 'dd100',
      model: 'section',
      matrix_table: 'matrix_hierarchy',
      label: { 'lg-eng': 'Thesaurus terms', 'lg-spa': 'Términos del tesauro' },
    },
    {
      tipo: 'hierarchy25',
      parent: 'ts1',
      model: 'component_input_text',
      translatable: true,
      label: { 'lg-eng': 'Term', 'lg-spa': 'Término' },
    },
    {
      tipo: 'hierarchy36',
      parent: 'ts1',
      model: 'component_relation_parent',
      target_section_tipo: ['ts1'],
      label: { 'lg-eng': 'Parent', 'lg-spa': 'Padre' },
    },
    {
      tipo: 'hierarchy49',
      parent: 'ts1',
      model: 'component_relation_children',
      target_section_tipo: ['ts1'],
      label: { 'lg-eng': 'Children', 'lg-spa': 'Hijos' },
    },
    {
      tipo: 'hierarchy40',
      parent: 'ts1',
      model: 'component_relation_index',
      target_section_tipo: ['oh1', 'rsc167'],
      label: { 'lg-eng': 'Indexations', 'lg-spa': 'Indexaciones' },
    },

    // Administration (area dd207 is ours): users, profiles, projects, activity, yes/no list.
    {
      tipo: 'dd207',
      parent: 'dd1',
      model: 'area_admin',
      label: { 'lg-eng': 'Administration', 'lg-spa': 'Administración' },
    },
    {
      tipo: 'dd128',
      parent: 'dd207',
      model: 'section',
      matrix_table: 'matrix_users',
      label: { 'lg-eng': 'Users', 'lg-spa': 'Usuarios' },
    },
    {
      tipo: 'dd132',
      parent: 'dd128',
      model: 'component_input_text',
      label: { 'lg-eng': 'Username', 'lg-spa': 'Usuario' },
    },
    {
      tipo: 'dd133',
      parent: 'dd128',
      model: 'component_password',
      label: { 'lg-eng': 'Password', 'lg-spa': 'Contraseña' },
    },
    {
      tipo: 'dd452',
      parent: 'dd128',
      model: 'component_input_text',
      label: { 'lg-eng': 'Full name', 'lg-spa': 'Nombre completo' },
    },
    {
      tipo: 'dd134',
      parent: 'dd128',
      model: 'component_email',
      label: { 'lg-eng': 'Email', 'lg-spa': 'Email' },
    },
    {
      tipo: 'dd1725',
      parent: 'dd128',
      model: 'component_select',
      target_section_tipo: ['dd234'],
      label: { 'lg-eng': 'Profile', 'lg-spa': 'Perfil' },
    },
    {
      tipo: 'dd170',
      parent: 'dd128',
      model: 'component_filter_master',
      target_section_tipo: ['dd153'],
      label: { 'lg-eng': 'Projects', 'lg-spa': 'Proyectos' },
    },
    {
      tipo: 'dd244',
      parent: 'dd128',
      model: 'component_radio_button',
      target_section_tipo: ['dd64'],
      label: { 'lg-eng': 'Global admin', 'lg-spa': 'Administrador global' },
    },
    {
      tipo: 'dd131',
      parent: 'dd128',
      model: 'component_radio_button',
      target_section_tipo: ['dd64'],
      label: { 'lg-eng': 'Active', 'lg-spa': 'Activo' },
    },
    {
      tipo: 'dd234',
      parent: 'dd207',
      model: 'section',
      matrix_table: 'matrix_profiles',
      label: { 'lg-eng': 'Profiles', 'lg-spa': 'Perfiles' },
    },
    {
      tipo: 'dd237',
      parent: 'dd234',
      model: 'component_input_text',
      label: { 'lg-eng': 'Name', 'lg-spa': 'Nombre' },
    },
    {
      tipo: 'dd774',
      parent: 'dd234',
      model: 'component_security_access',
      label: { 'lg-eng': 'Security access', 'lg-spa': 'Acceso de seguridad' },
    },
    {
      tipo: 'dd153',
      parent: 'dd207',
      model: 'section',
      matrix_table: 'matrix_projects',
      label: { 'lg-eng': 'Projects', 'lg-spa': 'Proyectos' },
    },
    {
      tipo: 'dd156',
      parent: 'dd153',
      model: 'component_input_text',
      translatable: true,
      label: { 'lg-eng': 'Name', 'lg-spa': 'Nombre' },
    },
    {
      tipo: 'dd542',
      parent: 'dd207',
      model: 'section',
      matrix_table: 'matrix_activity',
      read_only: true,
      label: { 'lg-eng': 'Activity', 'lg-spa': 'Actividad' },
    },
    {
      tipo: 'dd543',
      parent: 'dd542',
      model: 'component_select',
      target_section_tipo: ['dd128'],
      label: { 'lg-eng': 'User', 'lg-spa': 'Usuario' },
    },
    {
      tipo: 'dd545',
      parent: 'dd542',
      model: 'component_input_text',
      label: { 'lg-eng': 'What', 'lg-spa': 'Qué' },
    },
    {
      tipo: 'dd546',
      parent: 'dd542',
      model: 'component_input_text',
      label: { 'lg-eng': 'Where', 'lg-spa': 'Dónde' },
    },
    {
      tipo: 'dd547',
      parent: 'dd542',
      model: 'component_date',
      label: { 'lg-eng': 'When', 'lg-spa': 'Cuándo' },
    },
    {
      tipo: 'dd551',
      parent: 'dd542',
      model: 'component_json',
      label: { 'lg-eng': 'Data', 'lg-spa': 'Datos' },
    },
    {
      tipo: 'dd64',
      parent: 'dd207',
      model: 'section',
      label: { 'lg-eng': 'Yes/No', 'lg-spa': 'Sí/No' },
    },
    {
      tipo: 'dd62',
      parent: 'dd64',
      model: 'component_input_text',
      translatable: true,
      label: { 'lg-eng': 'Value', 'lg-spa': 'Valor' },
    },

    // Maintenance.
    {
      tipo: 'dd88',
      parent: 'dd1',
      model: 'area_maintenance',
      label: { 'lg-eng': 'Maintenance', 'lg-spa': 'Mantenimiento' },
    },
  ],
} satisfies OntologySeed;
