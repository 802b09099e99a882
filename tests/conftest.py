import os
import signal
import threading

import pytest
from hypothesis import HealthCheck, settings

from tests.threads import note_left_running

# Property tests: enough examples to find edge cases, few enough for a 2-core CI run.
settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


#: Tests left out of `make test-fast` (the tests to run while working, in under a minute on two
#: cores): each takes more than about a third of a second there (measured with --durations), or
#: starts a browser or a fresh interpreter per example. `make test` runs them all. A test id
#: without its [parameters] names every case; with them, that case alone.
SLOW_FILES = (
    "tests/test_help_examples.py",  # every --help example, each in its own interpreter
    "tests/test_readme.py",  # every console block of the README
    "tests/test_docs.py",  # every console block of the docs, and the site's build
    "tests/test_web_baikago.py",  # a real browser
    "tests/test_play_browser.py",  # a real browser
    "tests/test_play_conformance.py",  # a real browser solves every puzzle
)
SLOW_TESTS = {
    "tests/test_cli.py::test_the_demo_runs_and_every_count_matches",
    "tests/test_cli.py::test_less_than_three_find_exit_codes",
    "tests/test_cli.py::test_count_prints_the_number_alone_on_the_last_line[args0-28]",
    "tests/test_cli.py::test_output_into_a_closed_pipe_is_not_an_error",
    "tests/test_closed_tours.py::test_the_widest_state_on_a_small_board",
    "tests/test_closed_tours.py::test_agrees_with_plain_backtracking",
    "tests/test_closed_tours.py::test_agrees_with_the_one_word_sweep[5-6]",
    "tests/test_closed_tours.py::test_agrees_with_the_one_word_sweep[6-6]",
    "tests/test_goishi_requests.py::test_the_table_of_stones_is_the_exhaustive_layout_count",
    "tests/test_goishi_requests.py::test_no_request_that_could_succeed_is_refused_on_small_boards",
    "tests/test_goishi_generator.py::test_unique_layouts_of_5x5_resume_from_a_checkpoint_with_the_same_counts",
    "tests/test_less_than_three.py::test_classes_equal_the_twins_canonical_forms_on_larger_boards",
    "tests/test_less_than_three.py::test_symmetric_boards_match_flammenkamps_table[8-rotate 180-36]",
    "tests/test_less_than_three.py::test_classes_equal_the_least_image_count_and_the_twins_canonical_forms[rules0]",
    "tests/test_less_than_three.py::test_kernel_equals_the_reference_backtracker[rules2]",
    "tests/test_less_than_three.py::test_find_returns_a_checked_board_with_the_symmetry_it_names[21]",
    "tests/test_baikago_resume.py::test_a_resumed_search_gives_the_same_checked_proof",
    "tests/test_baikago.py::test_vcf_finds_exactly_what_the_plain_search_finds",
    "tests/test_baikago.py::test_alpha_beta_with_its_table_returns_the_plain_minimax_value",
    "tests/test_baikago.py::test_the_computer_beats_the_greedy_player_on_15x15",
    "tests/test_baikago.py::test_move_scores_evaluation_and_fours_match_the_twins[0]",
    "tests/test_baikago_solve.py::test_a_strategy_stops_where_any_image_of_the_position_has_a_pairing",
    "tests/test_long_counts.py::test_counts_on_a_local_dask_cluster_equal_the_local_ones",
    "tests/test_long_counts.py::test_a_soft_time_limit_waits_for_its_work",
    "tests/test_long_counts.py::test_ctrl_c_keeps_the_finished_subtasks",
    "tests/test_long_counts.py::test_a_run_killed_with_sigkill_resumes_from_its_checkpoint",
    "tests/test_long_counts.py::test_a_dense_goishi_board_obeys_its_time_limit",
    "tests/test_checkpoint_side_files.py::test_a_damaged_closed_tour_layer_is_refused_not_counted",
    "tests/test_knights_tour.py::test_dp_agrees_with_plain_backtracking_on_3x10",
    "tests/test_knights_tour.py::test_every_tour_matches_the_plain_backtracking[4-6-3]",
    "tests/test_queens.py::test_subtask_weights_add_up_to_the_whole[11-False]",
    "tests/test_queens.py::test_full_group_classes_equal_the_least_image_listing[17]",
    "tests/test_pictures.py::test_ctrl_c_during_a_timed_replay_ends_it_quietly_with_130",
    "tests/test_pictures.py::test_ctrl_c_ends_animate_quietly_with_130",
    "tests/test_pictures.py::test_animate_in_a_terminal_is_coloured_with_coordinates_and_q_quits",
    "tests/test_pictures.py::test_a_1000x1000_tour_stays_under_10_mb",
    "tests/test_limits_hold.py::test_a_hopeless_many_colour_count_starts_without_gigabytes",
    "tests/test_limits_hold.py::test_splitting_a_40x40_count_holds_its_prefixes_not_whole_boards",
    "tests/test_less_than_three.py::test_the_find_kernel_agrees_with_its_plain_twin[rotate 180-2-8]",
    "tests/test_less_than_three.py::test_eight_by_eight_tuples_and_classes_by_brute_force[2-counts0]",
    "tests/test_less_than_three.py::test_kernel_equals_the_reference_backtracker[rules7]",
    "tests/test_less_than_three.py::test_classes_equal_the_least_image_count_and_the_twins_canonical_forms[rules4]",
    "tests/test_web_connections.py::test_an_idle_server_uses_no_cpu",
    "tests/test_web_connections.py::test_slow_clients_are_closed_and_normal_requests_answered_meanwhile",
    "tests/test_web_store.py::test_a_hundred_open_games_are_all_kept_and_survive_a_restart",
    "tests/test_fuzz_inputs.py::test_parsers_stay_small_on_inputs_up_to_the_cap",
    "tests/test_fuzz_inputs.py::test_every_command_ends_with_a_known_exit_code",
    "tests/test_baikago_resume.py::test_a_time_limit_keeps_the_search_and_the_next_run_goes_on",
    "tests/test_baikago_solve.py::test_twin_agrees_on_the_empty_board[4]",
    "tests/test_baikago_solve.py::test_stop_flag_interrupts_the_search",
    "tests/test_baikago_solve.py::test_time_limit_stops_the_search",
    "tests/test_baikago_solve.py::test_cli_solve_bad_input_and_time_limit",
    "tests/test_goishi_generator.py::test_searching_one_layout_a_class_agrees_with_searching_every_layout",
    "tests/test_goishi_generator.py::test_join_makes_a_unique_19x19_with_60_stones_crossing_once",
    "tests/test_input_limits.py::test_parsers_stay_small_and_quick_on_inputs_under_the_cap[<lambda>9]",
    "tests/test_input_limits.py::test_a_closed_pipe_stops_quietly_with_exit_0",
    "tests/test_long_counts.py::test_a_forced_thread_that_fails_with_another_error_answers_the_stop",
    "tests/test_long_counts.py::test_cli_scheduler_flag",
    "tests/test_engine_protocol.py::test_the_engine_answers_a_huge_line_in_one_short_line_and_stays_small",
    "tests/test_queens.py::test_orbit_search_twin_equals_the_brute_force[11]",
    "tests/test_limits_hold.py::test_checking_and_writing_the_tour_out_are_within_the_time_limit",
    "tests/test_startup.py::test_warmup_compiles_every_puzzle_in_worker_processes",
    # Measured with --durations=0 on a loaded machine: every test above about 1 s there (about a
    # third of a second on two quiet cores), so that `make test-fast` stays under a minute.
    "tests/test_givens.py::test_lt3_the_completion_is_unique_by_brute_force[0-easy-7]",
    "tests/test_play_less_than_three.py::test_the_solvers_clicks_solve_it_and_the_records_checker_agrees[0-easy-10]",
    "tests/test_less_than_three.py::test_the_find_kernel_agrees_with_its_plain_twin[rotate 180-2-7]",
    "tests/test_baikago_cli.py::test_against_the_computer_it_says_you_and_the_computer_and_shows_the_board_once_a_turn",
    "tests/test_baikago_cli.py::test_another_game_is_offered_and_played",
    "tests/test_baikago_cli.py::test_the_computer_plays_both_sides_to_the_end",
    "tests/test_baikago_cli.py::test_the_engine_speaks_the_gomocup_protocol",
    "tests/test_baikago_cli.py::test_two_people_play_through_stdin_and_save_the_record",
    "tests/test_baikago_input.py::test_the_audits_pipe_judge_into_judge_reads_standard_input",
    "tests/test_baikago_proof_kernel.py::test_a_corrupted_strategy_is_refused",
    "tests/test_baikago_proof_kernel.py::test_a_pairing_that_misses_a_cross_is_refused",
    "tests/test_baikago_proof_kernel.py::test_a_stopped_walk_resumes_to_the_same_file",
    "tests/test_baikago_proof_kernel.py::test_kernel_and_twin_give_the_same_checked_strategy",
    "tests/test_baikago_proof_kernel.py::test_the_lean_reader_reads_what_json_reads",
    "tests/test_baikago_solve.py::test_values_of_the_positions_differ",
    "tests/test_check_documents.py::test_a_document_passes_only_with_the_problem_its_boards_solve",
    "tests/test_clean_stops.py::test_a_forced_stop_waits_while_the_thread_is_in_numbas_compiler",
    "tests/test_clean_stops.py::test_closing_a_checkpoint_while_another_thread_uses_it_never_crashes",
    "tests/test_conformance.py::test_solve_json_shape_and_text[knights-tour]",
    "tests/test_conformance.py::test_the_protocol_on_the_small_problem[knights-tour]",
    "tests/test_dominoes.py::test_a_count_past_int64_joins_several_moduli",
    "tests/test_dominoes.py::test_square_boards_match_a004003",
    "tests/test_fuzz_inputs.py::test_knights_tour_find_validates_sizes_and_seeds",
    "tests/test_givens.py::test_kt_a_search_with_too_few_numbers_is_undecided_not_endless",
    "tests/test_givens.py::test_kt_same_seed_same_puzzle_and_harder_has_fewer_givens",
    "tests/test_givens.py::test_kt_the_completion_is_unique_by_brute_force",
    "tests/test_givens.py::test_lt3_hard_givens_are_irreducible",
    "tests/test_givens.py::test_lt3_same_seed_same_puzzle_and_harder_has_fewer_givens",
    "tests/test_givens.py::test_lt3_the_pairs_are_the_boards_the_search_counts",
    "tests/test_givens.py::test_queens_same_seed_same_puzzle_and_harder_has_fewer_givens",
    "tests/test_goishi.py::test_a_memo_that_cannot_grow_still_gives_exact_answers",
    "tests/test_goishi.py::test_all_200_zen_solitaire_levels_are_unique_with_the_sources_solution",
    "tests/test_goishi.py::test_cli_animate_frames_svg_and_gif",
    "tests/test_goishi.py::test_counts_after_a_prefix_add_up",
    "tests/test_goishi.py::test_exercise_boards_have_the_published_counts[.O..O./OOOOOO/.O..O./.O..O./OOOOOO/.O..O.-7256]",
    "tests/test_goishi.py::test_giving_up_suggests_more_stones_when_there_are_few",
    "tests/test_goishi_generator.py::test_both_methods_make_unique_puzzles[regrow]",
    "tests/test_goishi_generator.py::test_cli_layouts",
    "tests/test_goishi_generator.py::test_join_on_small_boards_is_unique_by_the_plain_reference_too",
    "tests/test_goishi_generator.py::test_unique_layouts_of_4x4_single_stones_and_the_seeds",
    "tests/test_goishi_readback.py::test_solves_text_reads_back_as_the_puzzle_and_its_orders",
    "tests/test_goishi_requests.py::test_giving_up_with_json_prints_a_document_that_says_nothing_was_generated",
    "tests/test_grid.py::test_canonical_form_is_the_same_for_every_image",
    "tests/test_grid.py::test_torus_line_length_is_the_period_of_the_direction",
    "tests/test_house_limits.py::test_no_function_outside_the_kernels_is_over_60_lines",
    "tests/test_house_limits.py::test_no_string_in_the_puzzles_names_the_cli",
    "tests/test_input_limits.py::test_parsers_stay_small_and_quick_on_inputs_under_the_cap[<lambda>4]",
    "tests/test_knights_tour.py::test_all_starts_match_oeis_a165134",
    "tests/test_knights_tour.py::test_every_tour_matches_the_plain_backtracking",
    "tests/test_knights_tour.py::test_find_from_every_start_of_thin_boards",
    "tests/test_knights_tour.py::test_the_answer_does_not_depend_on_jobs",
    "tests/test_less_than_three.py::test_eight_by_eight_tuples_and_classes_by_brute_force",
    "tests/test_less_than_three.py::test_find_gives_up_at_the_time_limit_without_claiming_anything",
    "tests/test_less_than_three.py::test_find_returns_a_checked_board_with_the_symmetry_it_names[25]",
    "tests/test_less_than_three.py::test_kernel_equals_the_reference_backtracker[rules5]",
    "tests/test_less_than_three.py::test_many_colours_through_one_colour_solutions_equal_the_search",
    "tests/test_less_than_three.py::test_one_colour_classes_oeis_a000769[10-156]",
    "tests/test_less_than_three.py::test_one_colour_counts_oeis_a000755[10-1135]",
    "tests/test_less_than_three.py::test_one_colour_solutions_are_the_twins_boards[5]",
    "tests/test_less_than_three.py::test_symmetric_boards_match_flammenkamps_table[7-rotate 180-40]",
    "tests/test_less_than_three.py::test_ten_by_ten_with_two_colours_is_the_issues_c_figure",
    "tests/test_less_than_three.py::test_weighted_classes_equal_the_least_image_count[rules1]",
    "tests/test_less_than_three_find.py::test_ctrl_c_stops_the_search",
    "tests/test_less_than_three_find.py::test_find_on_large_sizes_returns_a_checked_board_of_the_class",
    "tests/test_less_than_three_find.py::test_has_symmetry_refuses_boards_that_only_turn_by_180",
    "tests/test_less_than_three_find.py::test_the_kernel_agrees_with_its_plain_twin[10]",
    "tests/test_limits_hold.py::test_a_refused_scheduler_address_fails_within_seconds",
    "tests/test_limits_hold.py::test_the_prefixes_are_the_rows_of_the_whole_boards_in_the_same_order",
    "tests/test_limits_hold.py::test_the_quick_check_agrees_with_the_plain_one",
    "tests/test_long_counts.py::test_a_goishi_checkpoint_from_stdin_is_bound_to_the_stones",
    "tests/test_open_tours.py::test_6x6_published_a165134",
    "tests/test_open_tours.py::test_a_run_resumes_from_a_middle_row",
    "tests/test_open_tours.py::test_a_saved_layer_of_another_board_is_refused",
    "tests/test_open_tours.py::test_a_time_limit_says_whether_the_swept_rows_are_kept",
    "tests/test_open_tours.py::test_agrees_with_plain_backtracking",
    "tests/test_open_tours.py::test_count_resumes_with_a_checkpoint",
    "tests/test_open_tours.py::test_halves_agree_with_plain_backtracking",
    "tests/test_open_tours.py::test_halves_meet_as_the_whole_sweep_counts",
    "tests/test_open_tours.py::test_halves_of_the_widest_states",
    "tests/test_open_tours.py::test_layers_are_saved_and_resumed",
    "tests/test_open_tours.py::test_published_counts",
    "tests/test_open_tours.py::test_the_widest_state_on_a_small_board",
    "tests/test_output_failures.py::test_a_closed_stdout_is_an_error_not_a_lost_answer",
    "tests/test_output_failures.py::test_a_full_stdout_is_bad_output_not_an_internal_error",
    "tests/test_output_failures.py::test_a_large_listing_to_a_full_disk_stops_at_the_first_write",
    "tests/test_pictures.py::test_a_found_board_and_a_generated_puzzle_as_pictures",
    "tests/test_pictures.py::test_the_gif_first_frame",
    "tests/test_pictures.py::test_tours_as_pictures",
    "tests/test_play_goishi.py::test_every_seeds_solution_passes_the_records_checker",
    "tests/test_play_goishi.py::test_harder_puzzles_have_more_steps_with_a_real_choice",
    "tests/test_play_goishi.py::test_new_puzzles_have_one_order_and_the_stones_of_their_difficulty",
    "tests/test_play_goishi.py::test_random_clicks_agree_with_the_legal_moves_and_the_records_checker",
    "tests/test_play_goishi.py::test_the_hardest_puzzles_of_each_size_are_made_quickly",
    "tests/test_play_knights_tour.py::test_a_puzzle_has_given_numbers_a_unique_tour_through_them_and_the_same_seed_makes_it_again",
    "tests/test_play_knights_tour.py::test_any_json_is_read_or_refused_cleanly",
    "tests/test_play_knights_tour.py::test_random_clicks_keep_a_path_through_the_givens_and_faults_name_every_dead_end",
    "tests/test_play_less_than_three.py::test_any_clicks_keep_the_givens_and_the_verdict_agrees_with_the_checker",
    "tests/test_play_queens.py::test_any_stored_json_is_read_or_refused_never_a_traceback",
    "tests/test_play_queens.py::test_faults_are_the_checkers_violations_and_solved_agrees_with_it",
    "tests/test_play_web.py::test_a_port_in_use_is_one_line_and_exit_2",
    "tests/test_play_web.py::test_a_restart_with_the_same_game_file_keeps_every_game",
    "tests/test_play_web.py::test_a_stored_game_that_no_longer_replays_is_dropped_with_a_line",
    "tests/test_queens.py::test_class_counts_equal_the_canonical_form_reference[11-True-full]",
    "tests/test_queens.py::test_class_counts_equal_the_canonical_form_reference[11-True-multipliers]",
    "tests/test_queens.py::test_class_counts_equal_the_canonical_form_reference[11-True-torus]",
    "tests/test_queens.py::test_subtask_weights_add_up_to_the_whole[11-True]",
    "tests/test_queens.py::test_thirteen_solutions_all_pass_the_checker",
    "tests/test_queens.py::test_torus_classes_with_multipliers_oeis_a062166[19-46]",
    "tests/test_registry.py::test_a_puzzle_of_another_package_is_listed_and_runs",
    "tests/test_registry.py::test_entry_points_are_read_only_where_a_package_declares_one",
    "tests/test_render.py::test_the_gif_keeps_the_coordinates_of_its_titles",
    "tests/test_startup.py::test_a_kernel_compiling_is_timed_as_compiling",
    "tests/test_startup.py::test_no_help_text_loads_numpy_or_numba",
    "tests/test_startup.py::test_small_goishi_path_gives_the_kernels_answers",
    "tests/test_web_connections.py::test_past_the_bound_a_new_connection_takes_the_place_of_a_silent_one",
    "tests/test_web_connections.py::test_the_computer_pool_shares_the_time_of_many_replies",
    "tests/test_web_store.py::test_a_second_server_on_the_same_file_is_refused_and_other_files_are_left_alone",
    "tests/test_web_store.py::test_a_stored_game_that_no_longer_replays_is_dropped",
    "tests/test_tutorial.py::test_the_commands_print_what_the_page_shows_and_take_json_and_pictures",
    "tests/test_tutorial.py::test_the_json_api_plays_it",
    "tests/test_closed_tours.py::test_past_the_memory_bound_the_count_goes_on_in_shards",
    "tests/test_closed_tours.py::test_a_count_that_fits_no_memory_stops_cleanly",
    "tests/test_open_tours.py::test_past_the_memory_bound_the_sweep_goes_on_in_shards",
    "tests/test_tour_shards.py::test_shards_count_as_the_sweep_in_memory",
    "tests/test_tour_shards.py::test_a_stopped_count_goes_on_from_its_last_finished_task",
    "tests/test_tour_shards.py::test_a_resumed_store_gives_the_same_count",
    "tests/test_tour_shards.py::test_a_store_of_another_count_is_refused",
    "tests/test_tour_shards.py::test_a_part_of_another_count_is_refused",
    "tests/test_tour_estimate.py::test_the_command_prints_the_estimate",
    "tests/test_tour_estimate.py::test_rows_swept_whole_give_the_sweeps_own_figures",
    "tests/test_tour_estimate.py::test_rows_past_the_swept_ones_follow_the_trend_of_narrower_boards",
    # Over a second on two cores when the tests run on one worker per core.
    "tests/test_web_faults.py::test_the_servers_lines_come_at_once_under_its_own_command",
    "tests/test_web_faults.py::test_a_game_file_deleted_under_the_server_is_written_again_and_said_so",
    "tests/test_web_faults.py::test_one_client_starting_games_in_a_loop_never_locks_others_out",
    "tests/test_web_faults.py::test_a_click_the_store_cannot_take_is_503_and_not_played_so_a_retry_plays_it_once",
    "tests/test_web_hosts.py::test_serve_beyond_loopback_says_where_and_warns_in_one_line",
    "tests/test_web_hosts.py::test_a_server_on_every_address_answers_a_visitor_at_its_address_with_a_link_that_works_there",
    "tests/test_givens.py::test_lt3_the_completion_is_unique_by_brute_force[0-medium-7]",
    "tests/test_play.py::test_kings_get_the_generic_board_play",
    "tests/test_long_counts.py::test_a_checkpoint_resumes_without_redoing_finished_subtasks",
    "tests/test_play_less_than_three.py::test_the_solvers_clicks_solve_it_and_the_records_checker_agrees[0-medium-10]",
    "tests/test_play_less_than_three.py::test_the_solvers_clicks_solve_it_and_the_records_checker_agrees[0-hard-10]",
    "tests/test_givens.py::test_lt3_the_completion_is_unique_by_brute_force[0-hard-7]",
    "tests/test_web_faults.py::test_a_baikago_move_the_store_cannot_take_is_503_and_not_played",
    "tests/test_play.py::test_the_answer_type_chooses_the_default_play_and_a_play_is_made_once",
    "tests/test_baikago_verify.py::test_a_copy_of_the_7x7_proof_without_one_position_is_refused",
    "tests/test_closed_tours.py::test_count_resumes_with_a_checkpoint",
    "tests/test_closed_tours.py::test_published_counts[6-7-1067638]",
    "tests/test_closed_tours.py::test_published_counts[6-8-55488142]",
    "tests/test_queens.py::test_the_least_image_kernel_equals_the_grids_canonical_form",
    "tests/test_play_knights_tour.py::test_random_clicks_keep_the_numbers_a_knights_move_apart_and_faults_name_every_dead_end",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        nodeid = item.nodeid
        if nodeid.startswith(SLOW_FILES) or nodeid in SLOW_TESTS or nodeid.split("[")[0] in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _ctrl_c_as_python_sets_it():
    """The command line's ``main`` owns its process: once its outcome is decided it ignores
    Ctrl-C, and an ignored signal is inherited by every program started afterwards. A test that
    calls ``main`` in this process would leave the later tests' commands deaf to their Ctrl-C, so
    Python's own handler is put back around every test (also when the suite itself was started
    with Ctrl-C ignored, as a background job of a script is). The same for SIGTERM, which
    ``main`` handles as Ctrl-C: a test worker left with that handler would answer the kill that
    ends the run with a KeyboardInterrupt instead of ending."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    yield
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.fixture(autouse=True)
def _threads_left_running(request):
    """Notes the threads a test leaves running (see tests/threads.py)."""
    before = set(threading.enumerate())
    yield
    note_left_running(request.node.nodeid, before)
